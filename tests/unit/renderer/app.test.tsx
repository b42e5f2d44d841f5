// @vitest-environment jsdom
import './dom-setup.js';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src-renderer/src/App.js';
import { activeNavPath } from '../../../src-renderer/src/components/Layout.js';
import { NAV_ITEMS } from '../../../src-renderer/src/navigation.js';
import { fail, ok, type Route } from './fake-transport.js';
import { ADMIN_SESSION, LOCAL_SESSION, VIEWER_SESSION, okList, renderApp } from './render-app.js';

afterEach(cleanup);

const NOT_LOGGED_IN = () => ok({ authenticated: false, reason: 'no valid session or API token: log in (POST /api/v1/auth/login)' });
/** What any other API route answers once the session is gone. */
const SESSION_GONE = () => fail(401, 'UNAUTHENTICATED', 'no valid session or API token');
const SERVICES: Record<string, Route> = { 'GET /api/v1/services': () => ok([]) };

function fillLogin(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('App in a browser', () => {
  it('sends an anonymous visitor to the login page, then to the page asked for', async () => {
    let session: Route = NOT_LOGGED_IN;
    const fake = renderApp('/services', {
      ...SERVICES,
      'GET /api/v1/auth/session': (body, query) => session(body, query),
      'POST /api/v1/auth/login': () => {
        session = () => ok(ADMIN_SESSION);
        return ok({ user: ADMIN_SESSION.user, expires_at: ADMIN_SESSION.expires_at });
      },
    });
    await screen.findByRole('heading', { name: 'Bootwright' });
    fillLogin(' admin ', 'secret');
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
    expect(fake.calls).toContainEqual({ method: 'POST', path: '/api/v1/auth/login', body: { username: 'admin', password: 'secret' } });
    expect(screen.getByRole('button', { name: 'User menu: admin (admin)' })).toBeTruthy();
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

  it('shows "not found" for an unknown deep link, with a way back', async () => {
    renderApp('/no/such/page', { ...SERVICES });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('/no/such/page')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Go to the dashboard' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('links every page of the navigation, and only routed pages, marking the current one', async () => {
    renderApp('/services/dns', { 'GET /api/v1/services/dns': () => ok({ enabled: true, port: 53, local_domain: 'bootwright.local', upstream: '' }), 'GET /api/v1/dns/records': () => okList([]) });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const hrefs = within(nav).getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(NAV_ITEMS.map((item) => item.path));
    const routed = new Set(ROUTES.map((route) => route.path));
    for (const href of hrefs) expect(routed.has(href!)).toBe(true);
    expect(within(nav).getByRole('link', { name: 'DNS' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Services' }).getAttribute('aria-current')).toBeNull();
  });

  it('hides pages a viewer may not open, and says which role a deep link needs', async () => {
    renderApp('/users', {}, { session: VIEWER_SESSION });
    expect((await screen.findByRole('alert')).textContent).toContain('needs the admin role');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const labels = within(nav).getAllByRole('link').map((link) => link.textContent);
    expect(labels).not.toContain('Users & API tokens');
    expect(labels).not.toContain('Audit log');
    expect(labels).toContain('Hosts');
  });

  it('logs out from the user menu back to the login page', async () => {
    let session: Route = () => ok(ADMIN_SESSION);
    renderApp('/services', {
      ...SERVICES,
      'GET /api/v1/auth/session': (body, query) => session(body, query),
      'POST /api/v1/auth/logout': () => {
        session = NOT_LOGGED_IN;
        return ok({ session_revoked: true });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'User menu: admin (admin)' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByLabelText('Username')).toBeTruthy();
  });

  it('changes the own password from the user menu, validating first and showing the server error at the field', async () => {
    const fake = renderApp('/services', {
      ...SERVICES,
      'PUT /api/v1/users/me/password': () => ({
        status: 400,
        body: { success: false, error: 'body.current_password: is not your current password', code: 'VALIDATION_FAILED', details: [{ field: 'body.current_password', message: 'is not your current password' }] },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'User menu: admin (admin)' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    fireEvent.change(within(dialog).getByLabelText('Current password'), { target: { value: 'old' } });
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(within(dialog).getByLabelText('Repeat the new password'), { target: { value: 'different' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('Too short: use at least 8 characters')).toBeTruthy();
    expect(within(dialog).getByText('The passwords differ')).toBeTruthy();
    expect(fake.calls.some((call) => call.method === 'PUT')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'a long new password' } });
    fireEvent.change(within(dialog).getByLabelText('Repeat the new password'), { target: { value: 'a long new password' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('Is not your current password')).toBeTruthy();
    // The error is announced with the field.
    const describedBy = within(dialog).getByLabelText('Current password').getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('Is not your current password');
  });

  it('returns to the login page when a request finds the session gone', async () => {
    const fake = renderApp('/services', { 'GET /api/v1/services': SESSION_GONE });
    expect(await screen.findByLabelText('Username')).toBeTruthy();
    expect(fake.calls.some((call) => call.path === '/api/v1/services')).toBe(true);
  });

  it('shows an unreachable server with a Retry', async () => {
    let up = false;
    renderApp('/services', { ...SERVICES, 'GET /api/v1/auth/session': () => (up ? ok(ADMIN_SESSION) : fail(503, 'UNAVAILABLE', 'server is starting')) });
    expect((await screen.findByRole('alert')).textContent).toContain('server is starting');
    up = true;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
  });
});

describe('App inside the desktop app (IPC)', () => {
  it('never shows the login page and offers no logout: the caller is the local admin', async () => {
    const fake = renderApp('/services', { ...SERVICES }, { kind: 'ipc', session: LOCAL_SESSION });
    expect(await screen.findByRole('heading', { name: 'Services' })).toBeTruthy();
    expect(screen.getByText('Desktop (local admin)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /User menu/ })).toBeNull();
    expect(fake.calls.some((call) => call.path === '/api/v1/auth/login')).toBe(false);
  });
});

describe('activeNavPath', () => {
  it('picks the longest navigation path that prefixes the location', () => {
    expect(activeNavPath('/')).toBe('/');
    expect(activeNavPath('/services')).toBe('/services');
    expect(activeNavPath('/services/dns')).toBe('/services/dns');
    expect(activeNavPath('/hosts/12')).toBe('/hosts');
    expect(activeNavPath('/profiles/new')).toBe('/profiles');
    expect(activeNavPath('/nowhere')).toBeNull();
  });
});
