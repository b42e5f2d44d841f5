// @vitest-environment jsdom
import './dom-setup.js';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootingNow, BootRecord } from '@contracts/hosts';
import { API_FIXTURES } from './api-fixtures.js';
import { ok } from './fake-transport.js';
import { callsTo, okList, renderApp } from './render-app.js';

vi.mock('../../../src-renderer/src/editor/CodeEditor.js', () => import('./code-editor-stub.js'));

afterEach(cleanup);

const BOOT: BootRecord = {
  started_at: '2024-05-01T10:00:00.000Z',
  last_at: '2024-05-01T10:00:09.500Z',
  outcome: 'booted',
  steps: [
    { at: '2024-05-01T10:00:00.000Z', kind: 'dhcp.discover', summary: 'DHCP DISCOVER (x86-64 UEFI)' },
    { at: '2024-05-01T10:00:03.200Z', kind: 'tftp.transfer.completed', summary: 'TFTP ipxe.efi: 1.0 MiB in 120 ms', detail: { file: 'ipxe.efi' } },
    { at: '2024-05-01T10:00:09.500Z', kind: 'boot.script_served', summary: 'Boot script served: boot debian (host profile)' },
  ],
};
const EARLIER: BootRecord = { ...BOOT, started_at: '2024-04-30T10:00:00.000Z', last_at: '2024-04-30T10:00:05.000Z', outcome: 'failed', steps: [BOOT.steps[0]!] };

describe("the host page's Boot timeline", () => {
  it('shows the latest boot step by step with offsets from its start, and earlier boots on request', async () => {
    const fake = renderApp('/hosts/1', { ...API_FIXTURES, 'GET /api/v1/hosts/1/timeline': () => ok({ mac: '52:54:00:00:00:01', host_id: 1, boots: [BOOT, EARLIER] }) });
    const table = await screen.findByRole('table', { name: 'Steps of the latest boot' });
    const rows = within(table).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual(['+0.0 sDHCP DISCOVER (x86-64 UEFI)dhcp.discover', '+3.2 sTFTP ipxe.efi: 1.0 MiB in 120 mstftp.transfer.completed', '+9.5 sBoot script served: boot debian (host profile)boot.script_served']);
    expect(screen.getByText('booted')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Show 1 earlier boot' }).click());
    expect(await screen.findByText('failed')).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/hosts/1/timeline')[0]?.query).toMatchObject({ limit: '5' });
  });

  it('says when the event log has no boot of the machine', async () => {
    renderApp('/hosts/1', API_FIXTURES);
    expect(await screen.findByText('No boot of this machine in the event log.')).toBeTruthy();
  });
});

describe("the dashboard's Booting now", () => {
  it('lists the machines booting with their outcome so far and latest step, and refreshes on a boot event', async () => {
    const row: BootingNow = { mac: '52:54:00:00:00:01', host_id: 1, hostname: 'web01', boot: { ...BOOT, outcome: 'in_progress' } };
    const unknown: BootingNow = { mac: '52:54:00:00:00:77', host_id: null, hostname: null, boot: { ...BOOT, outcome: 'installing' } };
    const fake = renderApp('/', { ...API_FIXTURES, 'GET /api/v1/hosts/booting-now': () => okList([row, unknown]) });
    const web = await screen.findByRole('group', { name: 'Boot of web01' });
    expect(within(web).getByRole('link', { name: 'web01' }).getAttribute('href')).toBe('/hosts/1');
    expect(within(web).getByText('in progress')).toBeTruthy();
    expect(within(web).getByText(/Boot script served: boot debian/)).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Boot of 52:54:00:00:00:77' })).getByText('installing')).toBeTruthy();

    const before = callsTo(fake.calls, 'GET', '/hosts/booting-now').length;
    const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed);
    act(() =>
      stream?.handlers.onMessage({
        id: 9,
        event: 'tftp.transfer.completed',
        data: { id: 9, kind: 'tftp.transfer.completed', level: 'info', message: 'x', mac: null, ip: '10.0.0.5', host_id: null, detail: null, created_at: new Date().toISOString() },
      }),
    );
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/hosts/booting-now').length).toBeGreaterThan(before), { timeout: 3000 });
  });

  it('says when nothing is booting', async () => {
    renderApp('/', API_FIXTURES);
    expect(await screen.findByText('No machine booted in the last 10 minutes.')).toBeTruthy();
  });
});
