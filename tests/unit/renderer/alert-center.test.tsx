// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from './fake-transport.js';
import { VIEWER_SESSION, callsTo, renderApp } from './render-app.js';

afterEach(cleanup);

const FAILED_DNS = {
  id: 'service.dns',
  severity: 'error',
  source: 'services',
  title: 'DNS failed',
  message: 'udp 0.0.0.0:53: address already in use (EADDRINUSE): another DNS server (systemd-resolved?) holds the port; stop it or set another port',
  since: null,
  link: '/services/dns',
  dismissed: false,
};
const BMC = { id: 'bmc.4', severity: 'warning', source: 'power', title: 'BMC "rack-a-01" (10.9.9.9) does not answer as it should', message: 'no route to the BMC\'s network (ENETUNREACH)', since: '2024-05-01T00:00:00Z', link: '/bmc', dismissed: false };

describe('the alert centre in the header', () => {
  it('counts the alerts (errors first), shows each in full with the page that fixes it, and dismisses one', async () => {
    let alerts = [FAILED_DNS, BMC];
    const fake = renderApp('/services', {
      'GET /api/v1/services': () => ok([]),
      'GET /api/v1/alerts': () => ok(alerts),
      'POST /api/v1/alerts/bmc.4/dismiss': () => {
        alerts = [FAILED_DNS];
        return ok({ ...BMC, dismissed: true });
      },
    });
    const bell = await screen.findByRole('button', { name: 'Alerts: 2, 1 error' });
    fireEvent.click(bell);
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(within(list).getByText(FAILED_DNS.message)).toBeTruthy();
    expect(within(list).getAllByRole('link', { name: 'Open' })[0]!.getAttribute('href')).toBe('/services/dns');
    fireEvent.click(within(list).getByRole('button', { name: `Dismiss: ${BMC.title}` }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/alerts/bmc.4/dismiss')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Alerts: 1, 1 error' })).toBeTruthy();
  });

  it('viewers see the alerts but cannot dismiss them', async () => {
    renderApp('/services', { 'GET /api/v1/services': () => ok([]), 'GET /api/v1/alerts': () => ok([BMC]) }, { session: VIEWER_SESSION });
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts: 1' }));
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(within(list).queryByRole('button', { name: /Dismiss/ })).toBeNull();
  });
});
