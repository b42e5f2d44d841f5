import type { BaselinesFacade } from '../../../src-main/baselines/baselines-facade.js';
import { AppError } from '../../../src-main/core/errors.js';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import type { ScriptsFacade } from '../../../src-main/scripts/scripts-facade.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

export interface StoreCore {
  t: TestCore;
  scripts: ScriptsFacade;
  baselines: BaselinesFacade;
  /** Makes the baselines area fail a create or update of the named baseline (a failure part-way through an import). */
  inject: { baselineWriteFails: ((name: string) => boolean) | null };
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role?: Role): Promise<{ status: number; body: Body }>;
}

export interface Body {
  success: boolean;
  data: Record<string, unknown> & Record<string, unknown>[];
  meta?: { total: number };
  error?: string;
  code?: string;
  details?: Record<string, unknown>[];
}

/** A real core (scripts, baselines, netboot, profiles and the store all real) with a failure switch on baseline writes. */
export async function storeCore(options: { dataDir?: string; storeDir?: string; now?: () => Date } = {}): Promise<StoreCore> {
  const t = await createTestCore({
    authenticator: roleAuthenticator,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    communityStore: { ...(options.storeDir ? { storeDir: options.storeDir } : {}), ...(options.now ? { now: options.now } : {}) },
  });
  const scripts = t.core.area('scripts');
  const baselines = t.core.area('baselines');
  const inject: StoreCore['inject'] = { baselineWriteFails: null };
  // The store holds this same facade object, so wrapping its writes here reaches the import.
  const create = baselines.create.bind(baselines);
  const update = baselines.update.bind(baselines);
  const failing = (name: string | undefined) => {
    if (name !== undefined && inject.baselineWriteFails?.(name)) throw new AppError('INTERNAL', `injected failure writing baseline "${name}"`);
  };
  baselines.create = async (input, author) => {
    failing(input.name);
    return create(input, author);
  };
  baselines.update = async (id, input, author) => {
    failing(input.name ?? baselines.get(id)?.name);
    return update(id, input, author);
  };
  return {
    t,
    scripts,
    baselines,
    inject,
    async call(method, url, payload, role = 'operator') {
      const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
      return { status: res.statusCode, body: res.json() as Body };
    },
  };
}
