import type { AssignedBaseline, AssignedQuery, Baseline, BaselineCreate, BaselineUpdate } from './baselines-contract.js';

/** What other areas use of the baselines area (the store imports baselines; runtime resolves them). */
export interface BaselinesFacade {
  get(id: number): Baseline | undefined;
  byName(name: string): Baseline | undefined;
  list(): readonly Baseline[];
  /** Throws the AppError a POST (existingId undefined) or PUT of this input would answer; writes nothing. */
  validate(input: BaselineCreate | BaselineUpdate, existingId?: number): Promise<void>;
  create(input: BaselineCreate, author: string): Promise<Baseline>;
  update(id: number, input: BaselineUpdate, author: string): Promise<Baseline>;
  remove(id: number): Promise<Baseline>;
  /** GET /baselines/assigned: which baseline applies to a machine, by which rule, and its scripts rendered. */
  assigned(query: AssignedQuery): Promise<AssignedBaseline>;
}
