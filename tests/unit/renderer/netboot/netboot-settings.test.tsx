// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsDefaults } from '@contracts/settings';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok } from '../fake-transport.js';
import { OPERATOR_SESSION, callsTo, renderApp } from '../render-app.js';

afterEach(cleanup);

const STORED = { ...settingsDefaults({ logLevel: 'info' }).netboot, http_proxy: 'http://proxy.lan:3128' };
const routes = {
  ...API_FIXTURES,
  'GET /api/v1/settings/netboot': () => ok(STORED),
  'PUT /api/v1/settings/netboot': (body: unknown) => ok({ ...STORED, ...(body as object) }),
};

describe('Netboot settings', () => {
  it('saves the download cache, offline mode, timeout, task expiry and (for an admin) the proxy', async () => {
    const fake = renderApp('/settings?tab=netboot', routes);
    const size = await screen.findByLabelText(/^Download cache size/);
    fireEvent.change(size, { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The contract's range, checked before sending.
    expect(await screen.findByText('64–1048576')).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')).toEqual([]);
    fireEvent.change(size, { target: { value: '4096' } });
    fireEvent.click(screen.getByLabelText(/^Offline: never download/));
    fireEvent.change(screen.getByLabelText(/^Install tasks expire after/), { target: { value: '120' } });
    fireEvent.change(screen.getByLabelText(/^HTTP proxy for downloads/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).toEqual({
        default_action: 'menu',
        default_profile_id: null,
        menu_timeout_seconds: 10,
        record_unknown_hosts: true,
        cache_max_mb: 4096,
        offline: true,
        download_timeout_seconds: 30,
        task_expiry_minutes: 120,
        http_proxy: null,
      }),
    );
  });

  it('lets an operator change everything but the proxy, which it never sends', async () => {
    const fake = renderApp('/settings?tab=netboot', routes, { session: OPERATOR_SESSION });
    const proxy = (await screen.findByLabelText(/^HTTP proxy for downloads/)) as HTMLInputElement;
    expect(proxy.disabled).toBe(true);
    expect(proxy.value).toBe('http://proxy.lan:3128');
    fireEvent.change(screen.getByLabelText(/^Download timeout/), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).toMatchObject({ download_timeout_seconds: 60 }));
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).not.toHaveProperty('http_proxy');
  });
});
