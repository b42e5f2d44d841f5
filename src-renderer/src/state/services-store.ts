import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError, isApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/api-client.js';
import { listServices, runServiceAction, setServiceAutoStart, type ServiceAction, type ServiceStatus } from '../api/services-api.js';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';
export type PendingOperation = ServiceAction | 'auto-start';

export interface ServiceActionError {
  name: string;
  message: string;
}

export interface ServicesState {
  services: ServiceStatus[];
  status: LoadStatus;
  loadError: string | null;
  /** When the list was fetched (ms since epoch): uptime counts on from here. */
  loadedAt: number;
  /** The operation in flight per service name; its buttons are disabled meanwhile. */
  pending: Record<string, PendingOperation>;
  actionError: ServiceActionError | null;
  /** Loads the list; the loading state shows only when nothing is on screen yet. */
  load(): Promise<void>;
  runAction(name: string, action: ServiceAction): Promise<void>;
  setAutoStart(name: string, autoStart: boolean): Promise<void>;
  dismissActionError(): void;
}

/** The services page's data: the list, per-row operations and their errors. */
export function createServicesStore(client: ApiClient, now: () => number = Date.now): StoreApi<ServicesState> {
  return createStore<ServicesState>()((set, get) => {
    const replace = (updated: ServiceStatus) =>
      set((state) => ({ services: state.services.map((service) => (service.name === updated.name ? updated : service)) }));

    const operate = async (name: string, operation: PendingOperation, run: () => Promise<ServiceStatus>) => {
      if (get().pending[name]) return;
      set((state) => ({ pending: { ...state.pending, [name]: operation }, actionError: null }));
      try {
        replace(await run());
        set({ loadedAt: now() });
      } catch (err) {
        const message = isApiError(err) ? err.message : describeError(err);
        set({ actionError: { name, message } });
      } finally {
        set((state) => {
          const { [name]: _done, ...rest } = state.pending;
          return { pending: rest };
        });
      }
    };

    return {
      services: [],
      status: 'idle',
      loadError: null,
      loadedAt: now(),
      pending: {},
      actionError: null,

      async load() {
        if (get().status !== 'ready') set({ status: 'loading', loadError: null });
        try {
          const services = await listServices(client);
          set({ services, status: 'ready', loadError: null, loadedAt: now() });
        } catch (err) {
          set({ status: 'error', loadError: describeError(err) });
        }
      },

      runAction(name, action) {
        return operate(name, action, () => runServiceAction(client, name, action));
      },

      setAutoStart(name, autoStart) {
        return operate(name, 'auto-start', () => setServiceAutoStart(client, name, autoStart));
      },

      dismissActionError() {
        set({ actionError: null });
      },
    };
  });
}
