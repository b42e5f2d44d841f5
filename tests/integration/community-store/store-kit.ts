import type { Role } from '../../../src-main/core/http-kit/access.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';
import { fakeBaselines, fakeScripts, type FakeBaselines, type FakeScripts } from './fake-facades.js';

export interface StoreCore {
  t: TestCore;
  scripts: FakeScripts;
  baselines: FakeBaselines;
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

/** A core with the store over fake scripts/baselines facades (built in parallel) and the real netboot and profiles areas. */
export async function storeCore(options: { dataDir?: string; storeDir?: string; now?: () => Date } = {}): Promise<StoreCore> {
  const scripts = fakeScripts();
  const baselines = fakeBaselines(scripts);
  const t = await createTestCore({
    authenticator: roleAuthenticator,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    communityStore: { scripts, baselines, ...(options.storeDir ? { storeDir: options.storeDir } : {}), ...(options.now ? { now: options.now } : {}) },
  });
  return {
    t,
    scripts,
    baselines,
    async call(method, url, payload, role = 'operator') {
      const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
      return { status: res.statusCode, body: res.json() as Body };
    },
  };
}
