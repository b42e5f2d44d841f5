import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import { ApiClient } from './api/api-client.js';
import type { Transport } from './api/transport.js';
import { createServicesStore, type ServicesState } from './state/services-store.js';
import { createSessionStore, type SessionState } from './state/session-store.js';

/** Everything the pages share: the API client and the stores built on it. */
export interface AppState {
  client: ApiClient;
  session: StoreApi<SessionState>;
  services: StoreApi<ServicesState>;
}

/** Builds the client over a transport and the stores; a 401 anywhere ends the session. */
export function createAppState(transport: Transport): AppState {
  let onUnauthenticated = () => {};
  const client = new ApiClient(transport, { onUnauthenticated: () => onUnauthenticated() });
  const session = createSessionStore(client);
  onUnauthenticated = () => session.getState().expire();
  return { client, session, services: createServicesStore(client) };
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

export function useServices<T>(selector: (state: ServicesState) => T): T {
  return useStore(useAppState().services, selector);
}
