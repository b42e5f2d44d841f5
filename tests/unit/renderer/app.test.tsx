// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transport } from '../../../src-renderer/src/api/transport.js';
import { App } from '../../../src-renderer/src/App.js';
import { AppStateProvider, createAppState } from '../../../src-renderer/src/app-state.js';
import { fail, fakeTransport, ok, type Route } from './fake-transport.js';

afterEach(cleanup);

const ADMIN_SESSION = { user: { id: 1, username: 'admin', role: 'admin' }, role: 'admin', expires_at: '2030-01-01T00:00:00Z', via: 'session' };
const LOCAL_SESSION = { user: { id: null, username: 'local', role: 'admin' }, role: 'admin', expires_at: null, via: 'local' };
const NOT_LOGGED_IN = () => fail(401, 'UNAUTHENTICATED', 'no valid session or API token');

function renderApp(path: string, routes: Record<string, Route>, kind: Transport['kind'] = 'http') {
  const fake = fakeTransport({ 'GET /api/v1/services': () => ok([]), ...routes }, kind);
  render(
    <AppStateProvider value={createAppState(fake.transport)}>
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>
    </AppStateProvider>,
  );
  return fake;
}

function fillLogin(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('App in a browser', () => {
  it('sends an anonymous visitor to the login page, then to the page asked for', async () => {
    let session: Route = NOT_LOGGED_IN;
    const fake = renderApp('/services', {
      'GET /api/v1/auth/session': (body) => session(body),
      'POST /api/v1/auth/login': () => {
        session = () => ok(ADMIN_SESSION);
        return ok({ user: ADMIN_SESSION.user, expires_at: ADMIN_SESSION.expires_at });
      },
    });
    await screen.findByRole('heading', { name: 'Bootwright' });
    fillLogin(' admin ', 'secret');
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
    expect(fake.calls).toContainEqual({ method: 'POST', path: '/api/v1/auth/login', body: { username: 'admin', password: 'secret' } });
    expect(screen.getByText('admin · admin')).toBeTruthy();
  });

  it('shows wrong credentials and the throttling message', async () => {
    let attempts = 0;
    renderApp('/', {
      'GET /api/v1/auth/session': NOT_LOGGED_IN,
      'POST /api/v1/auth/login': () =>
        ++attempts === 1 ? fail(401, 'UNAUTHENTICATED', 'invalid username or password') : fail(429, 'RATE_LIMITED', 'too many failed logins', 42),
    });
    await screen.findByLabelText('Username');
    fillLogin('admin', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username or password.');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    fillLogin('admin', 'wrong again');
    expect((await screen.findByText(/Too many login attempts/)).textContent).toBe('Too many login attempts. Try again in 42 seconds.');
  });

  it('says so when the login was accepted but the cookie did not stick', async () => {
    renderApp('/', {
      'GET /api/v1/auth/session': NOT_LOGGED_IN,
      'POST /api/v1/auth/login': () => ok({ user: ADMIN_SESSION.user, expires_at: ADMIN_SESSION.expires_at }),
    });
    await screen.findByLabelText('Username');
    fillLogin('admin', 'secret');
    expect((await screen.findByRole('alert')).textContent).toContain('did not keep the session cookie');
  });

  it('shows "not found" for an unknown deep link, with a way back, and links only to pages that exist', async () => {
    renderApp('/services/dns', { 'GET /api/v1/auth/session': () => ok(ADMIN_SESSION) });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('/services/dns')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/services']);
    fireEvent.click(screen.getByRole('link', { name: 'Go to Services' }));
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
  });

  it('logs out back to the login page', async () => {
    let session: Route = () => ok(ADMIN_SESSION);
    renderApp('/services', {
      'GET /api/v1/auth/session': (body) => session(body),
      'POST /api/v1/auth/logout': () => {
        session = NOT_LOGGED_IN;
        return ok({ session_revoked: true });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    expect(await screen.findByLabelText('Username')).toBeTruthy();
  });

  it('returns to the login page when a request finds the session gone', async () => {
    const fake = renderApp('/services', { 'GET /api/v1/auth/session': () => ok(ADMIN_SESSION), 'GET /api/v1/services': NOT_LOGGED_IN });
    expect(await screen.findByLabelText('Username')).toBeTruthy();
    expect(fake.calls.some((call) => call.path === '/api/v1/services')).toBe(true);
  });

  it('shows an unreachable server with a Retry', async () => {
    let up = false;
    renderApp('/services', { 'GET /api/v1/auth/session': () => (up ? ok(ADMIN_SESSION) : fail(503, 'UNAVAILABLE', 'server is starting')) });
    expect((await screen.findByRole('alert')).textContent).toContain('server is starting');
    up = true;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
  });
});

describe('App inside the desktop app (IPC)', () => {
  it('never shows the login page and offers no logout: the caller is the local admin', async () => {
    const fake = renderApp('/', { 'GET /api/v1/auth/session': () => ok(LOCAL_SESSION) }, 'ipc');
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
    expect(screen.getByText('Desktop (local admin)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
    expect(fake.calls.some((call) => call.path === '/api/v1/auth/login')).toBe(false);
  });
});
