import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import { ApiClient } from './api/api-client.js';
import type { Role } from '@contracts/auth';
import { roleAllows } from './api/roles.js';
import type { Transport } from './api/transport.js';
import { createLiveEventsStore, type LiveEventsState } from './live/live-events-store.js';
import { createQueryClient, type QueryClientOptions } from './query/query-client.js';
import { createSessionStore, type SessionState } from './state/session-store.js';

/**
 * Everything the pages share: the API client, the server-data cache (TanStack
 * Query) and the client-side stores (zustand): who is signed in, the live events.
 */
export interface AppState {
  client: ApiClient;
  queryClient: QueryClient;
  session: StoreApi<SessionState>;
  liveEvents: StoreApi<LiveEventsState>;
}

/** Builds the client over a transport and the stores; a 401 anywhere ends the session. */
export function createAppState(transport: Transport, options: QueryClientOptions = {}): AppState {
  let onUnauthenticated = () => {};
  const client = new ApiClient(transport, { onUnauthenticated: () => onUnauthenticated() });
  const session = createSessionStore(client);
  const queryClient = createQueryClient(options);
  onUnauthenticated = () => {
    session.getState().expire();
    // Whatever the next user may see is fetched afresh under their own rights.
    queryClient.clear();
  };
  return { client, queryClient, session, liveEvents: createLiveEventsStore() };
}

const AppStateContext = createContext<AppState | null>(null);

export function AppStateProvider({ value, children }: { value: AppState; children: ReactNode }) {
  return <AppStateContext.Provider value={value}>{children}</AppStateContext.Provider>;
}

export function useAppState(): AppState {
  const state = useContext(AppStateContext);
  if (!state) throw new Error('useAppState outside AppStateProvider');
  return state;
}

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(useAppState().session, selector);
}

export function useLiveEvents<T>(selector: (state: LiveEventsState) => T): T {
  return useStore(useAppState().liveEvents, selector);
}

/** The signed-in role (the desktop user is the local admin). */
export function useRole(): Role | null {
  return useSession((state) => state.session?.role ?? null);
}

/** Whether the signed-in user may do what needs `role`: pages hide what they may not. */
export function useCan(role: Role): boolean {
  return roleAllows(useRole(), role);
}
