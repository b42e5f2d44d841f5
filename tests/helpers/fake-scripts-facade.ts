import { createHash } from 'node:crypto';
import { AppError, notFound } from '../../src-main/core/errors.js';
import { KIND_FAMILY, type Script, type ScriptCreate, type ScriptUpdate } from '../../src-main/scripts/scripts-contract.js';
import type { ScriptsFacade } from '../../src-main/scripts/scripts-facade.js';

/**
 * An in-memory ScriptsFacade for the baselines tests, written while the
 * scripts area was built in parallel: scripts with ids, versions and sha256,
 * a case-insensitive name, and the usage checks a delete consults (409 naming
 * the users unless forced). No per-kind check.
 */
export class FakeScriptsFacade implements ScriptsFacade {
  private readonly rows = new Map<number, Script>();
  private readonly checks: ((scriptId: number) => string[])[] = [];
  private nextId = 1;

  get(id: number): Script | undefined {
    return this.rows.get(id);
  }

  byName(name: string): Script | undefined {
    return [...this.rows.values()].find((script) => script.name.toLowerCase() === name.toLowerCase());
  }

  list(): readonly Script[] {
    return [...this.rows.values()];
  }

  async validate(input: ScriptCreate | ScriptUpdate, existingId?: number): Promise<void> {
    if (existingId !== undefined && !this.rows.has(existingId)) throw notFound('script', existingId);
    if (input.name !== undefined && this.byName(input.name) && this.byName(input.name)?.id !== existingId) throw new AppError('CONFLICT', `script name "${input.name}" is taken`);
  }

  async create(input: ScriptCreate, _author = 'test'): Promise<Script> {
    await this.validate(input);
    const now = new Date().toISOString();
    const script: Script = {
      id: this.nextId++,
      name: input.name,
      kind: input.kind,
      os_family: input.os_family ?? KIND_FAMILY[input.kind],
      description: input.description ?? '',
      content: input.content,
      variables: { ...(input.variables ?? {}) },
      version: 1,
      sha256: createHash('sha256').update(input.content).digest('hex'),
      created_at: now,
      updated_at: now,
    };
    this.rows.set(script.id, script);
    return script;
  }

  async update(id: number, input: ScriptUpdate, _author = 'test'): Promise<Script> {
    await this.validate(input, id);
    const current = this.rows.get(id);
    if (!current) throw notFound('script', id);
    const { comment: _comment, ...fields } = input;
    const contentChanged = input.content !== undefined && input.content !== current.content;
    const next: Script = { ...current, ...fields, updated_at: new Date().toISOString() };
    if (contentChanged) {
      next.version = current.version + 1;
      next.sha256 = createHash('sha256').update(next.content).digest('hex');
    }
    this.rows.set(id, next);
    return next;
  }

  async remove(id: number, options: { force?: boolean } = {}): Promise<Script> {
    const current = this.rows.get(id);
    if (!current) throw notFound('script', id);
    const users = this.checks.flatMap((check) => check(id));
    if (users.length > 0 && options.force !== true) throw new AppError('CONFLICT', `script "${current.name}" (id ${id}) is used by ${users.join(', ')}`);
    this.rows.delete(id);
    return current;
  }

  async check(): Promise<never> {
    throw new Error('the fake scripts facade does not check scripts');
  }

  addUsageCheck(check: (scriptId: number) => string[]): void {
    this.checks.push(check);
  }
}
