import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import type { Transport } from '../../../src-renderer/src/api/transport.js';
import { App } from '../../../src-renderer/src/App.js';
import { createAppState, type AppState } from '../../../src-renderer/src/app-state.js';
import { AppProviders } from '../../../src-renderer/src/components/AppProviders.js';
import { fakeTransport, ok, type Route } from './fake-transport.js';

export const ADMIN_SESSION = { authenticated: true, user: { id: 1, username: 'admin', role: 'admin' }, role: 'admin', expires_at: '2030-01-01T00:00:00Z', via: 'session' };
export const OPERATOR_SESSION = { authenticated: true, user: { id: 2, username: 'op', role: 'operator' }, role: 'operator', expires_at: '2030-01-01T00:00:00Z', via: 'session' };
export const VIEWER_SESSION = { authenticated: true, user: { id: 3, username: 'view', role: 'viewer' }, role: 'viewer', expires_at: '2030-01-01T00:00:00Z', via: 'session' };
export const LOCAL_SESSION = { authenticated: true, user: { id: null, username: 'local', role: 'admin' }, role: 'admin', expires_at: null, via: 'local' };

/** A list answer with meta, as the API sends it. */
export const okList = (data: unknown[], total = data.length, page = 1, size = 50) => ({ status: 200, body: { success: true, data, meta: { total, page, size } } });

/** Providers around any element (for component tests without the router's App). */
export function renderWithProviders(ui: ReactNode, transport: Transport, path = '/') {
  const state = createAppState(transport, { retry: false });
  const result = render(
    <AppProviders state={state} env="test">
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, state };
}

/**
 * The whole app at `path` over a fake transport: `routes` answer
 * "METHOD /api/v1/…" (exact path with query); the session defaults to an admin.
 */
export function renderApp(path: string, routes: Record<string, Route>, options: { kind?: Transport['kind']; session?: unknown } = {}) {
  const fake = fakeTransport(
    {
      'GET /api/v1/auth/session': () => ok(options.session ?? ADMIN_SESSION),
      ...routes,
    },
    options.kind ?? 'http',
  );
  const { state } = renderWithProviders(<App />, fake.transport, path);
  return { ...fake, state: state as AppState };
}

/** The calls made to `method path` (path without query), with their queries parsed. */
export function callsTo(calls: { method: string; path: string; body: unknown }[], method: string, path: string) {
  return calls
    .filter((call) => call.method === method && call.path.split('?')[0] === `/api/v1${path}`)
    .map((call) => ({ ...call, query: Object.fromEntries(new URLSearchParams(call.path.split('?')[1] ?? '')) }));
}
