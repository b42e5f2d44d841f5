// @vitest-environment jsdom
import '../dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NfsExportInput, NfsPathCheck, NfsSettingsUpdate, NfsSettingsView } from '@contracts/nfs';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok, type Route } from '../fake-transport.js';
import { callsTo, OPERATOR_SESSION, renderApp, VIEWER_SESSION } from '../render-app.js';
import { NFS_SETTINGS, NFS_STATUS } from './nfs-fixtures.js';

afterEach(cleanup);

const NFS_SERVICE = {
  name: 'nfs',
  description: 'NFS v3 server (read-only)',
  state: 'running',
  auto_start: false,
  protected: false,
  listen: ['tcp 0.0.0.0:2049'],
  started_at: '2024-05-01T00:00:00Z',
  uptime_seconds: 5,
  last_error: null,
  notice: null,
};

/** The settings a PUT answers: what was sent over what was stored (new exports get the next ids). */
function saved(body: unknown): NfsSettingsView {
  const patch = body as Omit<NfsSettingsUpdate, 'exports'> & { exports?: NfsExportInput[] };
  const exports = (patch.exports ?? NFS_SETTINGS.exports).map((entry, index) => ({
    id: entry.id ?? 10 + index,
    path: entry.path,
    folder: entry.folder ?? null,
    image_id: entry.image_id ?? null,
    clients: entry.clients,
    enabled: entry.enabled ?? true,
    comment: entry.comment ?? '',
    problem: null,
  }));
  // image_clients null (back to the served interfaces) is shown as the list in effect.
  const clients = patch.image_clients === undefined ? { image_clients: NFS_SETTINGS.image_clients, image_clients_default: NFS_SETTINGS.image_clients_default } : patch.image_clients === null ? { image_clients: ['10.0.0.0/24'], image_clients_default: true } : { image_clients: patch.image_clients, image_clients_default: false };
  return { ...NFS_SETTINGS, ...patch, ...clients, exports };
}

function renderNfs(routes: Record<string, Route> = {}, session?: unknown) {
  return renderApp(
    '/services/nfs',
    {
      ...API_FIXTURES,
      'GET /api/v1/services': () => ok([NFS_SERVICE]),
      'PUT /api/v1/services/nfs': (body) => ok(saved(body)),
      ...routes,
    },
    session ? { session } : {},
  );
}

const exportsTable = () => screen.findByRole('table', { name: 'NFS exports' });
const rowOf = (table: HTMLElement, path: string) => within(table).getByRole('rowheader', { name: new RegExp(`^${path.replace(/\//g, '\\/')}`) }).closest('tr')!;

describe('NFS page (/services/nfs)', () => {
  it('lists the exports with image names, problems, the automatic image exports and mount commands for the LAN address', async () => {
    renderNfs();
    const table = await exportsTable();
    expect(within(rowOf(table, '/live')).getByText('folder /srv/live')).toBeTruthy();
    // The image is named, not numbered.
    const debian = within(rowOf(table, '/debian'));
    expect(debian.getByText('image Debian 12.5 netinst')).toBeTruthy();
    expect(debian.getByText('problem')).toBeTruthy();
    expect(debian.getByText('image 1 is not readable')).toBeTruthy();
    expect(debian.getByText('fd00::/64')).toBeTruthy();
    // The status' automatic export, read-only, with its badge.
    await waitFor(() => expect(within(table).getByText('/iso/win11')).toBeTruthy());
    const auto = within(rowOf(table, '/iso/win11'));
    expect(auto.getByText('automatic')).toBeTruthy();
    expect(auto.queryByRole('button', { name: /Edit/ })).toBeNull();
    // The host of the status' LAN URL (http://10.0.0.1:8080).
    expect(screen.getByLabelText('How to mount /live').textContent).toBe('mount -t nfs -o vers=3,proto=tcp,nolock 10.0.0.1:/live /mnt');
    expect(screen.getByLabelText('How to mount /iso/win11').textContent).toBe('mount -t nfs -o vers=3,proto=tcp,nolock 10.0.0.1:/iso/win11 /mnt');
  });

  it('shows the status: portmapper, listen addresses, totals and the clients', async () => {
    renderNfs();
    expect(await screen.findByText('our portmapper on udp/tcp 0.0.0.0:111')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Listening on' })).getByText('udp 0.0.0.0:2049')).toBeTruthy();
    expect(screen.getByLabelText('Requests').textContent).toBe('1,240');
    expect(screen.getByLabelText('Read').textContent).toBe('3.0 GiB');
    const clients = screen.getByRole('table', { name: 'NFS clients since the service started' });
    const row = within(clients).getByRole('rowheader', { name: '10.0.0.42' }).closest('tr')!;
    expect(within(row).getByText('/live')).toBeTruthy();
    expect(within(row).getByText('1,234')).toBeTruthy();
    expect(within(row).getByText('3.0 GiB')).toBeTruthy();
    // The service header with its controls.
    const header = screen.getByRole('region', { name: 'NFS service state' });
    expect(within(header).getByText('running')).toBeTruthy();
    expect(within(header).getByRole('button', { name: 'Stop nfs' })).toBeTruthy();
  });

  it('refetches the status when an nfs event arrives', async () => {
    let answers = 0;
    const fake = renderNfs({ 'GET /api/v1/services/nfs/status': () => ok({ ...NFS_STATUS, requests: ++answers === 1 ? 1240 : 5000 }) });
    await waitFor(() => expect(screen.getByLabelText('Requests').textContent).toBe('1,240'));
    const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed);
    expect(stream).toBeDefined();
    act(() =>
      stream!.handlers.onMessage({
        id: 7,
        event: 'event',
        data: { id: 7, kind: 'nfs.mounted', level: 'info', message: '10.0.0.43 mounted /live', mac: null, ip: '10.0.0.43', host_id: null, detail: { client: '10.0.0.43', export: '/live' }, created_at: new Date().toISOString() },
      }),
    );
    await waitFor(() => expect(screen.getByLabelText('Requests').textContent).toBe('5,000'), { timeout: 3000 });
  });

  it('saves the settings without `enabled` unless it changed, and puts the 400 details at their fields', async () => {
    let attempt = 0;
    const fake = renderNfs({
      'PUT /api/v1/services/nfs': (body) =>
        ++attempt === 1
          ? {
              status: 400,
              body: {
                success: false,
                code: 'VALIDATION_FAILED',
                error: 'invalid settings',
                details: [
                  { field: 'body.mount_port', message: 'must differ from nfs_port' },
                  { field: 'body.image_clients[1]', message: 'is not a subnet' },
                ],
              },
            }
          : ok(saved(body)),
    });
    const form = await screen.findByRole('form', { name: 'NFS settings' });
    // The explanation of the portmapper mode shown.
    expect(within(form).getByText(/register with that one instead/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('MOUNT port', { exact: false }), { target: { value: '2049' } });
    fireEvent.change(within(form).getByLabelText('Clients allowed to mount the images', { exact: false }), { target: { value: '10.0.0.0/24, 10.1.0.0/16' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save NFS settings' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/services/nfs')[0]?.body).toEqual({
        nfs_port: 2049,
        mount_port: 2049,
        portmapper: 'auto',
        udp: true,
        export_mounted_images: true,
        image_clients: ['10.0.0.0/24', '10.1.0.0/16'],
      }),
    );
    expect(await within(form).findByText('Must differ from nfs_port')).toBeTruthy();
    expect(within(form).getByText('Is not a subnet')).toBeTruthy();
    // A bad subnet is caught before sending.
    fireEvent.change(within(form).getByLabelText('Clients allowed to mount the images', { exact: false }), { target: { value: '10.0.0.0/99' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save NFS settings' }));
    expect(await within(form).findByText('"10.0.0.0/99": prefix length 0–32')).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/services/nfs')).toHaveLength(1);
  });

  it('sends image_clients only when edited: emptied is null (back to the served interfaces), and the default shows empty with the list in effect', async () => {
    // The server's state: GET answers what the last PUT saved.
    let current: NfsSettingsView = { ...NFS_SETTINGS, image_clients: ['10.0.0.0/24'], image_clients_default: true };
    const fake = renderNfs({
      'GET /api/v1/services/nfs': () => ok(current),
      'PUT /api/v1/services/nfs': (body) => {
        const patch = body as NfsSettingsUpdate;
        current = { ...saved(body), exports: current.exports, ...(patch.image_clients === undefined ? { image_clients: current.image_clients, image_clients_default: current.image_clients_default } : {}) };
        return ok(current);
      },
    });
    const form = await screen.findByRole('form', { name: 'NFS settings' });
    const clients = within(form).getByLabelText('Clients allowed to mount the images', { exact: false }) as HTMLInputElement;
    await waitFor(() => expect(within(form).getByText(/empty: the subnets of the served interfaces, now 10\.0\.0\.0\/24\./)).toBeTruthy());
    expect(clients.value).toBe('');
    // Another field saved: the default is not pinned to the list shown.
    fireEvent.change(within(form).getByLabelText('MOUNT port', { exact: false }), { target: { value: '20049' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save NFS settings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/nfs')).toHaveLength(1));
    expect(callsTo(fake.calls, 'PUT', '/services/nfs')[0]?.body).not.toHaveProperty('image_clients');
    // Set, then emptied again: null.
    fireEvent.change(clients, { target: { value: '10.7.0.0/16' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save NFS settings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/nfs')).toHaveLength(2));
    expect(callsTo(fake.calls, 'PUT', '/services/nfs')[1]?.body).toMatchObject({ image_clients: ['10.7.0.0/16'] });
    await waitFor(() => expect(clients.value).toBe('10.7.0.0/16'));
    fireEvent.change(clients, { target: { value: '  ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save NFS settings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/nfs')).toHaveLength(3));
    expect(callsTo(fake.calls, 'PUT', '/services/nfs')[2]?.body).toMatchObject({ image_clients: null });
    await waitFor(() => expect(clients.value).toBe(''));
  });

  it('adds a folder export picked with the browser and checked with Validate, keeping the other exports and their ids', async () => {
    const check: NfsPathCheck = { path: '/srv/rescue', real_path: '/srv/rescue', valid: true, problems: [], warnings: ['empty folder'] };
    const fake = renderNfs({ 'POST /api/v1/services/nfs/validate-path': () => ok(check) });
    await exportsTable();
    fireEvent.click(screen.getByRole('button', { name: 'New export' }));
    const dialog = await screen.findByRole('dialog', { name: 'New NFS export' });
    fireEvent.change(within(dialog).getByLabelText('Export path', { exact: false }), { target: { value: '/rescue' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Browse…' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Open folder /srv' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Open folder rescue' }));
    await waitFor(() => expect((within(dialog).getByLabelText('Exported folder', { exact: false }) as HTMLInputElement).value).toBe('/srv/rescue'));
    expect(callsTo(fake.calls, 'GET', '/services/nfs/browse-path').map((call) => call.query.path)).toEqual([undefined, '/srv', '/srv/rescue']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Validate' }));
    const result = await within(dialog).findByRole('status', { name: 'Folder check' });
    expect(within(result).getByText('Warning: empty folder')).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/services/nfs/validate-path')[0]?.body).toEqual({ path: '/srv/rescue' });
    fireEvent.change(within(dialog).getByLabelText('Allowed clients', { exact: false }), { target: { value: '10.0.0.0/24 10.0.1.0/24' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add export' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/nfs')).toHaveLength(1));
    expect(callsTo(fake.calls, 'PUT', '/services/nfs')[0]?.body).toEqual({
      exports: [
        { id: 1, path: '/live', folder: '/srv/live', image_id: null, clients: ['10.0.0.0/24'], enabled: true, comment: 'live system' },
        { id: 2, path: '/debian', folder: null, image_id: 1, clients: ['10.0.0.0/24', 'fd00::/64'], enabled: true, comment: '' },
        { path: '/rescue', folder: '/srv/rescue', image_id: null, clients: ['10.0.0.0/24', '10.0.1.0/24'], enabled: true, comment: '' },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New NFS export' })).toBeNull());
  });

  it('shows a problem and warnings of Validate, and a save error at the edited export\'s field', async () => {
    const check: NfsPathCheck = { path: '/etc', real_path: '/etc', valid: false, problems: ['/etc is outside the allowed roots'], warnings: [] };
    renderNfs({
      'POST /api/v1/services/nfs/validate-path': () => ok(check),
      'PUT /api/v1/services/nfs': () => ({
        status: 400,
        body: { success: false, code: 'VALIDATION_FAILED', error: 'invalid export', details: [{ field: 'body.exports[0].folder', message: 'is outside the allowed roots' }] },
      }),
    });
    const table = await exportsTable();
    fireEvent.click(within(rowOf(table, '/live')).getByRole('button', { name: 'Edit export /live' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit export /live' });
    fireEvent.change(within(dialog).getByLabelText('Exported folder', { exact: false }), { target: { value: '/etc' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Validate' }));
    const result = await within(dialog).findByRole('status', { name: 'Folder check' });
    expect(within(result).getByText('The folder cannot be exported')).toBeTruthy();
    expect(within(result).getByText('/etc is outside the allowed roots')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save export' }));
    expect(await within(dialog).findByText('is outside the allowed roots')).toBeTruthy();
  });

  it('exports an OS image chosen by name', async () => {
    const fake = renderNfs();
    await exportsTable();
    fireEvent.click(screen.getByRole('button', { name: 'New export' }));
    const dialog = await screen.findByRole('dialog', { name: 'New NFS export' });
    fireEvent.change(within(dialog).getByLabelText('Export path', { exact: false }), { target: { value: '/win' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'An OS image' }));
    const select = await within(dialog).findByPlaceholderText('Choose an image');
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Debian 12.5 netinst' }));
    fireEvent.change(within(dialog).getByLabelText('Allowed clients', { exact: false }), { target: { value: '0.0.0.0/0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add export' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/services/nfs')).toHaveLength(1));
    const body = callsTo(fake.calls, 'PUT', '/services/nfs')[0]?.body as NfsSettingsView;
    expect(body.exports[2]).toEqual({ path: '/win', folder: null, image_id: 1, clients: ['0.0.0.0/0'], enabled: true, comment: '' });
  });

  it('deletes an export after confirmation with the rest of the list', async () => {
    const fake = renderNfs();
    const table = await exportsTable();
    fireEvent.click(within(rowOf(table, '/live')).getByRole('button', { name: 'Delete export /live' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete NFS export?' })).getByRole('button', { name: 'Delete export' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/services/nfs')[0]?.body).toEqual({
        exports: [{ id: 2, path: '/debian', folder: null, image_id: 1, clients: ['10.0.0.0/24', 'fd00::/64'], enabled: true, comment: '' }],
      }),
    );
  });

  it('gives an operator the settings but not the exports, and a viewer neither', async () => {
    renderNfs({}, OPERATOR_SESSION);
    await exportsTable();
    expect(screen.queryByRole('button', { name: 'New export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit export /live' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save NFS settings' })).toBeTruthy();
    cleanup();
    renderNfs({}, VIEWER_SESSION);
    await exportsTable();
    expect(screen.queryByRole('button', { name: 'Save NFS settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Stop nfs' })).toBeNull();
  });
});
