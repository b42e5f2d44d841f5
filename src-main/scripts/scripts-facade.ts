import type { Script, ScriptCheck, ScriptCreate, ScriptKind, ScriptUpdate, ScriptVariables } from './scripts-contract.js';

/**
 * What other areas use of the scripts area (baselines resolve and render
 * scripts; the store validates and imports them). Every write validates
 * exactly like the routes do and throws the same AppError.
 */
export interface ScriptsFacade {
  get(id: number): Script | undefined;
  byName(name: string): Script | undefined;
  list(): readonly Script[];
  /** Throws the AppError a POST (existingId undefined) or PUT of this input would answer; writes nothing. */
  validate(input: ScriptCreate | ScriptUpdate, existingId?: number): Promise<void>;
  create(input: ScriptCreate, author: string): Promise<Script>;
  update(id: number, input: ScriptUpdate, author: string): Promise<Script>;
  /** Deletes a script and its versions; 409 naming its users (see addUsageCheck) unless `force`. */
  remove(id: number, options?: { force?: boolean }): Promise<Script>;
  /**
   * The per-kind check (sh -n / bash -n in a sandboxed child with a time limit, YAML, encoding), after
   * rendering the Liquid with `variables` (default none: each variable used is then an "undeclared" warning).
   */
  check(kind: ScriptKind, content: string, variables?: ScriptVariables): Promise<ScriptCheck>;
  /** Registers who uses a script (baselines): the names it returns make a delete answer 409. */
  addUsageCheck(check: (scriptId: number) => string[]): void;
}
