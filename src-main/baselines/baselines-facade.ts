import type { ListPage, ListQueryInput } from '../core/http-kit/list-query.js';
import type { OsFamily } from '../scripts/scripts-contract.js';
import type {
  AssignedBaseline,
  AssignedQuery,
  Baseline,
  BaselineCreate,
  BaselineScriptInput,
  BaselineScriptView,
  BaselineUpdate,
} from './baselines-contract.js';

/** Where the machine asking is (its server address is the one on its subnet); default: the host's address. */
export interface AssignedContext {
  clientIp?: string;
}

/** What other areas use of the baselines area (the store imports baselines; runtime resolves them). */
export interface BaselinesFacade {
  get(id: number): Baseline | undefined;
  byName(name: string): Baseline | undefined;
  list(): readonly Baseline[];
  /** GET /baselines: q matches name, description, groups and tags; sort by id, name, os_family, created_at, updated_at. */
  page(query: ListQueryInput & { os_family?: OsFamily }): ListPage<Baseline>;
  /** Throws the AppError a POST (existingId undefined) or PUT of this input would answer; writes nothing. */
  validate(input: BaselineCreate | BaselineUpdate, existingId?: number): Promise<void>;
  create(input: BaselineCreate, author: string): Promise<Baseline>;
  update(id: number, input: BaselineUpdate, author: string): Promise<Baseline>;
  remove(id: number, author?: string): Promise<Baseline>;
  /** GET /baselines/{id}/scripts: the ordered steps (404 for an unknown baseline). */
  scriptsOf(id: number): BaselineScriptView[];
  /** PUT /baselines/{id}/scripts: replaces the ordered steps. */
  setScripts(id: number, scripts: BaselineScriptInput[], author: string): Promise<BaselineScriptView[]>;
  /** GET /baselines/assigned: which baseline applies to a machine, by which rule, and its scripts rendered. */
  assigned(query: AssignedQuery, context?: AssignedContext): Promise<AssignedBaseline>;
}
