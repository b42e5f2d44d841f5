// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DnsRecord, DnsSettings } from '@contracts/dns';
import { ok, type Route } from './fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from './render-app.js';

afterEach(cleanup);

const SETTINGS: DnsSettings = { enabled: true, port: 53, local_domain: 'bootwright.local', upstream: '1.1.1.1, 9.9.9.9:53' };
const record = (id: number, fields: Partial<DnsRecord>): DnsRecord => ({
  id,
  name: 'pxe',
  type: 'A',
  value: '10.0.0.5',
  ttl: 300,
  priority: null,
  subnet: null,
  enabled: true,
  comment: '',
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-01T00:00:00Z',
  ...fields,
});
const RECORDS = [record(1, {}), record(2, { name: '@', type: 'MX', value: 'mail.bootwright.local.', priority: 10 })];

function renderDns(routes: Record<string, Route> = {}, session?: unknown) {
  return renderApp(
    '/services/dns',
    {
      'GET /api/v1/services/dns': () => ok(SETTINGS),
      'GET /api/v1/dns/records': (_body, query) => okList(query.type ? RECORDS.filter((r) => r.type === query.type) : RECORDS, 120, Number(query.page ?? 1)),
      ...routes,
    },
    session ? { session } : {},
  );
}

describe('DNS page (/services/dns)', () => {
  it('says at the top that DNS failed, with its error in full, and offers Start, though the settings say enabled', async () => {
    const error = 'udp 0.0.0.0:53: address already in use (EADDRINUSE): another DNS server (systemd-resolved?) holds the port; stop it or set another port';
    const failed = { name: 'dns', description: '', state: 'failed', auto_start: true, protected: false, listen: [], started_at: null, uptime_seconds: null, last_error: error, notice: null };
    renderDns({ 'GET /api/v1/services': () => ok([failed]), 'POST /api/v1/services/dns/start': () => ok(failed) });
    const header = await screen.findByRole('region', { name: 'DNS service state' });
    expect(within(header).getByText('failed')).toBeTruthy();
    expect(within(header).getByText('DNS is not running: it failed')).toBeTruthy();
    expect(within(header).getByText(error)).toBeTruthy();
    // A start that fails again answers 200 with state failed: it still gets a notification with the server's message.
    fireEvent.click(within(header).getByRole('button', { name: 'Start dns' }));
    expect(await screen.findByText('dns did not start')).toBeTruthy();
  });

  it('shows the settings with one input per upstream server and the records table', async () => {
    renderDns();
    expect(await screen.findByDisplayValue('bootwright.local')).toBeTruthy();
    expect((screen.getByLabelText('Upstream server 1') as HTMLInputElement).value).toBe('1.1.1.1');
    expect((screen.getByLabelText('Upstream server 2') as HTMLInputElement).value).toBe('9.9.9.9:53');
    const table = await screen.findByRole('table', { name: 'DNS records' });
    expect(within(table).getByText('10 mail.bootwright.local.')).toBeTruthy();
    expect(screen.getByText('1–2 of 120')).toBeTruthy();
  });

  it('checks each upstream entry before saving and saves the list as the API string', async () => {
    const fake = renderDns({ 'PUT /api/v1/services/dns': (body) => ok({ ...SETTINGS, ...(body as object) }) });
    await screen.findByDisplayValue('bootwright.local');
    fireEvent.click(screen.getByRole('button', { name: 'Add upstream server' }));
    fireEvent.change(screen.getByLabelText('Upstream server 3'), { target: { value: 'dns.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save DNS settings' }));
    expect(await screen.findByText(/"dns.example.com" is not an IP address/)).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/services/dns')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Upstream server 3'), { target: { value: '[2001:db8::53]:53' } });
    fireEvent.change(screen.getByLabelText('Port'), { target: { value: '5353' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save DNS settings' }));
    await waitFor(() =>
      // No `enabled`: the switch did not change, and sent unchanged it would start a server stopped by hand.
      expect(callsTo(fake.calls, 'PUT', '/services/dns')[0]?.body).toEqual({ port: 5353, local_domain: 'bootwright.local', upstream: '1.1.1.1, 9.9.9.9:53, [2001:db8::53]:53' }),
    );
    fireEvent.click(screen.getByRole('switch', { name: /DNS server enabled/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save DNS settings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/dns')[1]?.body).toMatchObject({ enabled: false }));
  });

  it('shows the server refusing a field at that field (and an upstream problem at its entry)', async () => {
    renderDns({
      'PUT /api/v1/services/dns': () => ({
        status: 400,
        body: {
          success: false,
          code: 'VALIDATION_FAILED',
          error: 'body.upstream: upstream entry "9.9.9.9:53": port 53 is this server',
          details: [
            { field: 'body.upstream', message: 'upstream entry "9.9.9.9:53": port 53 is this server' },
            { field: 'body.local_domain', message: 'label "a..b" is empty' },
          ],
        },
      }),
    });
    await screen.findByDisplayValue('bootwright.local');
    fireEvent.click(screen.getByRole('button', { name: 'Save DNS settings' }));
    expect(await screen.findByText('upstream entry "9.9.9.9:53": port 53 is this server')).toBeTruthy();
    const entry = screen.getByLabelText('Upstream server 2');
    expect(document.getElementById(entry.getAttribute('aria-describedby') ?? '')?.textContent).toContain('port 53 is this server');
    expect(screen.getByText('label "a..b" is empty')).toBeTruthy();
  });

  it('filters, searches, sorts and pages on the server', async () => {
    const fake = renderDns();
    await screen.findByRole('table', { name: 'DNS records' });
    fireEvent.click(screen.getByRole('button', { name: 'Sort by TTL' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/dns/records').at(-1)?.query.sort).toBe('ttl'));
    fireEvent.click(screen.getByRole('button', { name: 'Sort by TTL' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/dns/records').at(-1)?.query.sort).toBe('-ttl'));
    expect(screen.getByRole('columnheader', { name: /TTL/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/dns/records').at(-1)?.query.page).toBe('2'));
    fireEvent.change(screen.getByLabelText('Search records'), { target: { value: 'mail' } });
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/dns/records').at(-1)?.query).toMatchObject({ q: 'mail', page: '1' }));
  });

  it('creates an MX record: the priority field appears with the type, and a server error shows at its field', async () => {
    let attempts = 0;
    const created: DnsRecord[] = [];
    const fake = renderDns({
      'POST /api/v1/dns/records': (body) => {
        if (++attempts === 1) {
          return { status: 400, body: { success: false, code: 'VALIDATION_FAILED', error: 'body.value: mail.example is not in the local domain', details: [{ field: 'body.value', message: 'must be a host name in the local domain' }] } };
        }
        created.push(record(3, body as Partial<DnsRecord>));
        return { status: 201, body: { success: true, data: created[0] } };
      },
      'GET /api/v1/dns/records': () => okList([...RECORDS, ...created], 120, 1),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New record' }));
    const dialog = await screen.findByRole('dialog', { name: 'New DNS record' });
    expect(within(dialog).queryByLabelText('Priority')).toBeNull();
    expect(within(dialog).getByLabelText('IPv4 address')).toBeTruthy();
    fireEvent.click(within(dialog).getAllByLabelText('Type').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'MX' }));
    expect(within(dialog).getByLabelText('Priority')).toBeTruthy();
    expect(within(dialog).getByLabelText('Mail exchange')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: '@' } });
    fireEvent.change(within(dialog).getByLabelText('Mail exchange'), { target: { value: 'mail' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create record' }));
    expect(await within(dialog).findByText('Must be a host name in the local domain')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create record' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New DNS record' })).toBeNull());
    expect(callsTo(fake.calls, 'POST', '/dns/records').at(-1)?.body).toEqual({ name: '@', type: 'MX', value: 'mail', ttl: 300, priority: 10, subnet: null, enabled: true, comment: '' });
    // The new row is marked (and scrolled to) once the list is read again.
    await waitFor(() => expect(document.querySelectorAll('tr[data-new]')).toHaveLength(1));
    expect(document.querySelector('tr[data-new]')?.textContent).toContain('mail');
  });

  it('deletes a record only after confirmation', async () => {
    const fake = renderDns({ 'DELETE /api/v1/dns/records/1': () => ok(RECORDS[0]) });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete pxe A' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete DNS record?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fake.calls, 'DELETE', '/dns/records/1')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete pxe A' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete DNS record?' })).getByRole('button', { name: 'Delete record' }));
    await waitFor(() => expect(callsTo(fake.calls, 'DELETE', '/dns/records/1')).toHaveLength(1));
  });

  it('gives a viewer read-only settings and no record buttons', async () => {
    renderDns({}, VIEWER_SESSION);
    await screen.findByRole('table', { name: 'DNS records' });
    expect((screen.getByLabelText('Local domain') as HTMLInputElement).disabled).toBe(true);
    for (const name of [/New record/, /Edit /, /Delete /, /Save DNS settings/, /Add upstream/, /Remove upstream/]) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });
});
