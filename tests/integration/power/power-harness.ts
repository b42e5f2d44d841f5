import type { AppEvent } from '../../../src-main/events/event-types.js';
import type { AppCore } from '../../../src-main/app/app-core.js';
import type { WolDatagram } from '../../../src-main/power/index.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { POWER_NICS } from '../../unit/power/power-test-kit.js';
import type { AppCoreOptions } from '../../../src-main/app/app-core.js';

export interface Envelope<T = unknown> {
  success: boolean;
  data: T;
  meta?: { total: number; page: number; size: number };
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

/**
 * A test core for the power area: fixture NICs (documentation subnets) and
 * a WOL transport that records datagrams instead of sending them.
 */
export async function powerCore(options: Partial<Omit<AppCoreOptions, 'config'>> & { dataDir?: string } = {}): Promise<TestCore & { sent: WolDatagram[] }> {
  const sent: WolDatagram[] = [];
  const t = await createTestCore({
    nicReader: () => POWER_NICS,
    ...options,
    power: { wolTransport: async (datagram) => void sent.push(datagram), ...options.power },
  });
  return Object.assign(t, { sent });
}

/** Calls the API as the local admin (IPC transport). */
export async function api<T = unknown>(core: AppCore, method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> {
  const response = await core.ipc.invoke(body === undefined ? { method, path: `/api/v1${path}` } : { method, path: `/api/v1${path}`, body });
  return { status: response.status, body: response.body as Envelope<T> };
}

export function eventsOf(core: AppCore, kind: string): AppEvent[] {
  return core.kernel.events.all().filter((event) => event.kind === kind);
}

/** Resolves with the first event of `kind` (already stored or still to come); rejects after `timeoutMs`. */
export function nextEvent(core: AppCore, kind: string, timeoutMs = 10_000, after = 0): Promise<AppEvent> {
  const existing = core.kernel.events.all().find((event) => event.kind === kind && event.id > after);
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${kind} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = core.kernel.events.subscribe((event) => {
      if (event.kind !== kind || event.id <= after) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}
