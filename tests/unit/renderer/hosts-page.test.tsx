// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootPreview as BootConfig } from '@contracts/boot-scripts';
import type { HostView as Host } from '@contracts/hosts';
import type { Profile } from '@contracts/profiles';
import { fail, ok, type Route } from './fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from './render-app.js';

vi.mock('../../../src-renderer/src/editor/CodeEditor.js', () => import('./code-editor-stub.js'));

afterEach(cleanup);

const host = (id: number, fields: Partial<Host> = {}): Host => ({
  id,
  mac: `52:54:00:00:00:0${id}`,
  hostname: `web0${id}`,
  ip: null,
  profile_id: null,
  group: null,
  tags: [],
  description: '',
  arch: null,
  platform: null,
  enabled: true,
  boot_loader: null,
  discovered: false,
  last_boot_at: null,
  last_seen_ip: null,
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-01T00:00:00Z',
  effective_boot:
    fields.profile_id === 7
      ? { action: 'profile', profile_id: 7, profile_name: 'Debian installer', task_id: null, source: 'host', text: 'profile "Debian installer"' }
      : { action: 'menu', profile_id: null, profile_name: null, task_id: null, source: 'global_default', text: 'the boot menu (netboot default)' },
  lifecycle: fields.discovered ? 'discovered' : 'new',
  ...fields,
});
const PROFILE = { id: 7, name: 'Debian installer', boot_type: 'linux' } as Profile;
const BOOT: BootConfig = {
  host_id: 1,
  mac: '52:54:00:00:00:01',
  action: 'profile',
  reason: 'host_assignment',
  reason_text: 'host 1 is assigned profile "Debian installer"',
  profile: { id: 7, name: 'Debian installer', boot_type: 'linux', script_version: 2 },
  loader: { kind: 'ipxe', architecture: 'uefi_x64', first_stage: 'ipxe.efi', source: 'architecture', reason_text: 'the x64 UEFI default is iPXE' },
  script: '#!ipxe\nkernel http://10.0.0.1:8080/boot/debian/linux\nboot\n',
  grub_config: 'linux (tftp,10.0.0.1)/debian/linux\nboot\n',
  grub_config_path: 'grub/host/x86_64/52:54:00:00:00:01.cfg',
  render_error: null,
  files: [{ command: 'kernel', url: 'http://10.0.0.1:8080/boot/debian/linux', state: 'present' }],
  entry_url: 'http://10.0.0.1:8080/boot/ipxe/entry.ipxe',
  script_url: 'http://10.0.0.1:8080/boot/ipxe/boot.ipxe?mac=52%3A54%3A00%3A00%3A00%3A01',
  client_ip: null,
  servers: [
    { interface: 'eth0', subnet: '10.0.0.0/24', address: '10.0.0.1', entry_url: 'http://10.0.0.1:8080/boot/ipxe/entry.ipxe' },
    { interface: 'br0', subnet: '10.50.0.0/24', address: '10.50.0.1', entry_url: 'http://10.50.0.1:8080/boot/ipxe/entry.ipxe' },
  ],
};

const common: Record<string, Route> = {
  'GET /api/v1/profiles': () => okList([PROFILE]),
  'GET /api/v1/hosts': (_body, query) => okList(query.discovered === 'true' ? [host(2, { hostname: null, discovered: true })] : [host(1, { profile_id: 7, group: 'lab', tags: ['rack1'] }), host(2, { hostname: null, discovered: true })]),
};

describe('Hosts page', () => {
  it('lists hosts with their profile by name, and filters on the server', async () => {
    const fake = renderApp('/hosts', common);
    const table = await screen.findByRole('table', { name: 'Hosts' });
    const row = within(table).getByRole('link', { name: 'web01' }).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('profile "Debian installer"')).toBeTruthy());
    // A machine without a profile of its own says what it boots instead of a grey "default".
    const other = within(table).getByText('52:54:00:00:00:02').closest('tr')!;
    expect(within(other).getByText('the boot menu (netboot default)')).toBeTruthy();
    expect(within(table).getByText('discovered')).toBeTruthy();
    fireEvent.click(screen.getAllByLabelText('Discovered').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Discovered only' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/hosts').at(-1)?.query.discovered).toBe('true'));
    fireEvent.change(screen.getByLabelText('Group'), { target: { value: 'lab' } });
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/hosts').at(-1)?.query.group).toBe('lab'));
  });

  it('creates a host with a profile, showing a server error at its field, then opens it', async () => {
    let attempts = 0;
    const fake = renderApp('/hosts', {
      ...common,
      'POST /api/v1/hosts': (body) =>
        ++attempts === 1
          ? { status: 409, body: { success: false, code: 'CONFLICT', error: 'MAC 52:54:00:00:00:09 belongs to host web01 (id 1)', details: [{ field: 'body.mac', message: 'belongs to host web01 (id 1)' }] } }
          : { status: 201, body: { success: true, data: host(9, body as Partial<Host>) } },
      'GET /api/v1/hosts/9': () => ok(host(9, { hostname: 'new01', profile_id: 7 })),
      'GET /api/v1/hosts/9/boot-config': () => ok({ ...BOOT, host_id: 9 }),
      'GET /api/v1/bmc/configs': () => okList([]),
      'GET /api/v1/wol/history': () => okList([]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New host' }));
    const dialog = await screen.findByRole('dialog', { name: 'New host' });
    fireEvent.change(within(dialog).getByLabelText(/MAC address/), { target: { value: 'not a mac' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create host' }));
    expect(await within(dialog).findByText(/A MAC address, e.g./)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/MAC address/), { target: { value: '52-54-00-00-00-09' } });
    fireEvent.change(within(dialog).getByLabelText('Hostname'), { target: { value: 'new01' } });
    fireEvent.click(within(dialog).getAllByLabelText('Boot profile').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Debian installer' }));
    fireEvent.click(within(dialog).getAllByLabelText('Boot loader').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'GRUB (Secure Boot chain)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create host' }));
    expect(await within(dialog).findByText('Belongs to host web01 (id 1)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create host' }));
    expect(await screen.findByRole('heading', { name: 'new01' })).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/hosts').at(-1)?.body).toMatchObject({ mac: '52-54-00-00-00-09', hostname: 'new01', profile_id: 7, ip: null, tags: [], enabled: true, boot_loader: 'grub' });
  });

  it('wakes the selected hosts and reports the ones that failed', async () => {
    const fake = renderApp('/hosts', {
      ...common,
      'POST /api/v1/hosts/batch/wake': () =>
        ok([
          { ok: true, host_id: 1, mac: '52:54:00:00:00:01', interfaces: ['eth0'], history: {}, error: null },
          { ok: false, host_id: 2, mac: '52:54:00:00:00:02', interfaces: [], history: {}, error: 'no interface on its subnet' },
        ]),
    });
    await screen.findByRole('table', { name: 'Hosts' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Wake selected (2)' }));
    expect(await screen.findByText(/no interface on its subnet/)).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/hosts/batch/wake')[0]?.body).toEqual({ ids: [1, 2] });
  });

  it('adopts a discovered machine (discovered: false with the chosen fields), offering the address it was seen on', async () => {
    const seen = host(2, { hostname: null, discovered: true, last_seen_ip: '10.0.0.57' });
    const fake = renderApp('/hosts', { ...common, 'GET /api/v1/hosts': () => okList([seen]), 'PUT /api/v1/hosts/2': (body) => ok(host(2, body as Partial<Host>)) });
    fireEvent.click(await screen.findByRole('button', { name: 'Adopt 52:54:00:00:00:02' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adopt discovered machine' });
    expect((within(dialog).getByLabelText(/^IP address/) as HTMLInputElement).value).toBe('10.0.0.57');
    expect(within(dialog).getByText('Seen on 10.0.0.57: kept, it is reserved for this machine')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Hostname'), { target: { value: 'db01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adopt host' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/hosts/2')[0]?.body).toMatchObject({ hostname: 'db01', ip: '10.0.0.57', discovered: false }));
  });

  it('shows a viewer no selection, no create and no row actions', async () => {
    renderApp('/hosts', common, { session: VIEWER_SESSION });
    await screen.findByRole('table', { name: 'Hosts' });
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /New host|Wake|Adopt/ })).toBeNull();
  });
});

describe('Hosts page bulk actions', () => {
  const report = (fields: Record<string, unknown>) => ({ dry_run: true, mode: 'create', rows: 2, created: 2, updated: 0, problems: [], problem_count: 0, ...fields });

  it('imports a pasted CSV: checks it (dry run, problems table), then imports the corrected file', async () => {
    const fake = renderApp('/hosts', {
      ...common,
      'POST /api/v1/hosts/import': (body, query) => {
        const csv = (body as { csv: string }).csv;
        if (query.dry_run !== 'true') return { status: 201, body: { success: true, data: report({ dry_run: false, mode: query.mode ?? 'create' }) } };
        return csv.includes('bad')
          ? ok(report({ created: 1, problems: [{ row: 2, line: 3, field: 'mac', message: '"bad" is not a MAC address' }], problem_count: 1 }))
          : ok(report({ mode: query.mode ?? 'create' }));
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import hosts' });
    fireEvent.change(within(dialog).getByLabelText('Or paste the CSV'), { target: { value: 'mac\n52:54:00:00:00:31\nbad\n' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check' }));
    const problems = await within(dialog).findByRole('table', { name: 'Import problems' });
    expect(within(problems).getByText('"bad" is not a MAC address')).toBeTruthy();
    expect(within(dialog).getByText(/1 problem\(s\): nothing can be imported yet/)).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/hosts/import')).toHaveLength(1);

    fireEvent.change(within(dialog).getByLabelText('Or paste the CSV'), { target: { value: 'mac\n52:54:00:00:00:31\n52:54:00:00:00:32\n' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Update existing MACs' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Import 2 host(s)' }));
    expect(await within(dialog).findByText('Imported')).toBeTruthy();
    const calls = callsTo(fake.calls, 'POST', '/hosts/import');
    expect(calls.map((call) => [call.query.dry_run, call.query.mode])).toEqual([['true', 'create'], ['true', 'upsert'], [undefined, 'upsert']]);
    expect(calls.at(-1)?.body).toEqual({ csv: 'mac\n52:54:00:00:00:31\n52:54:00:00:00:32\n' });
  });

  it('shows the phase of a long import from its progress events while it runs', async () => {
    let finish: (() => void) | null = null;
    const fake = renderApp('/hosts', {
      ...common,
      'POST /api/v1/hosts/import': (_body, query) =>
        query.dry_run === 'true'
          ? ok(report({ rows: 2000, created: 2000 }))
          : new Promise((resolve) => {
              finish = () => resolve({ status: 201, body: { success: true, data: report({ dry_run: false, rows: 2000, created: 2000 }) } });
            }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import hosts' });
    fireEvent.change(within(dialog).getByLabelText('Or paste the CSV'), { target: { value: 'mac\n52:54:00:00:00:31\n' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Import 2000 host(s)' }));
    expect(await within(dialog).findByText('Importing 2000 row(s)…')).toBeTruthy();
    const events = fake.streams.find((stream) => stream.request.stream === 'events' && !stream.closed);
    expect(events).toBeDefined();
    const event = { id: 900, kind: 'hosts.import.progress', level: 'info', message: 'host import of 2000 rows: reservations written', mac: null, ip: null, host_id: null, detail: { phase: 'reservations_written', rows: 2000 }, created_at: new Date().toISOString() };
    events!.handlers.onMessage({ id: 900, event: 'event', data: event });
    expect(await within(dialog).findByText('Host import of 2000 rows: reservations written…')).toBeTruthy();
    finish!();
    expect(await within(dialog).findByText('Imported')).toBeTruthy();
  });

  it('deletes the selected hosts after confirmation, all in one request', async () => {
    const fake = renderApp('/hosts', { ...common, 'POST /api/v1/hosts/batch/delete': () => ok({ count: 2, hosts: [host(1), host(2)] }) });
    await screen.findByRole('table', { name: 'Hosts' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete 2 host(s)' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/hosts/batch/delete')[0]?.body).toEqual({ ids: [1, 2] }));
  });

  it('assigns a profile and group to the selected hosts, sending only what changes', async () => {
    const fake = renderApp('/hosts', { ...common, 'POST /api/v1/hosts/batch/assign': () => ok({ count: 2, hosts: [host(1), host(2)] }) });
    await screen.findByRole('table', { name: 'Hosts' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Assign selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign to 2 selected host(s)' });
    fireEvent.click(within(dialog).getAllByLabelText('Profile').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Debian installer' }));
    fireEvent.change(within(dialog).getByLabelText(/^Group/), { target: { value: 'rack-2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply to all' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/hosts/batch/assign')[0]?.body).toEqual({ ids: [1, 2], profile_id: 7, group: 'rack-2' }));
  });
});

const API_BMC = { id: 1, name: 'bmc1', address: '10.0.0.50', port: 623, protocol: 'ipmi', username: 'admin', has_password: true, host_id: 1, verify_tls: true, cipher_suite: null, privilege: 'administrator', power_state: 'on', vendor: null, model: null, last_checked_at: null, last_error: null, created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z' };

describe('Host page', () => {
  const detail: Record<string, Route> = {
    ...common,
    'GET /api/v1/hosts/1': () => ok(host(1, { profile_id: 7 })),
    'GET /api/v1/hosts/1/boot-config': () => ok(BOOT),
    'GET /api/v1/bmc/configs': () => okList([]),
    'GET /api/v1/wol/history': () => okList([]),
  };

  it('previews the boot configuration: decision, files and the rendered script', async () => {
    renderApp('/hosts/1', detail);
    expect(await screen.findByText('host 1 is assigned profile "Debian installer"')).toBeTruthy();
    expect((screen.getByLabelText('Rendered boot script') as HTMLTextAreaElement).value).toContain('kernel http://10.0.0.1:8080/boot/debian/linux');
    expect(screen.getByRole('table', { name: 'Files the host would fetch' })).toBeTruthy();
    // A host not seen yet: our address on each subnet it may boot from.
    const servers = screen.getByRole('table', { name: 'Server address per subnet' });
    expect(within(servers).getByText('10.50.0.0/24 (br0)')).toBeTruthy();
    expect(within(servers).getByText('10.50.0.1')).toBeTruthy();
    expect(screen.getByText('No BMC is configured for this host; it can still be woken with Wake-on-LAN.', { exact: false })).toBeTruthy();
  });

  it('says what the host boots next and its state, and a BMC whose last read failed as unknown with when it was tried', async () => {
    renderApp('/hosts/1', {
      ...detail,
      'GET /api/v1/hosts/1': () =>
        ok(host(1, { profile_id: null, group: 'k8s', lifecycle: 'deployed', effective_boot: { action: 'profile', profile_id: 9, profile_name: 'ubuntu-autoinstall', task_id: null, source: 'group', text: 'profile "ubuntu-autoinstall" (group "k8s" default)' } })),
      'GET /api/v1/bmc/configs': () => okList([{ ...API_BMC, power_state: null, last_checked_at: '2024-05-01T19:53:29Z', last_error: 'no route to 10.0.0.50: check the BMC network' }]),
    });
    const details = await screen.findByRole('table', { name: 'Host details' });
    const next = within(details).getByText('Boots next').closest('tr')!;
    expect(within(next).getByText('profile "ubuntu-autoinstall" (group "k8s" default)')).toBeTruthy();
    expect(within(next).getByText('group')).toBeTruthy();
    expect(within(within(details).getByText('State').closest('tr')!).getByText('deployed')).toBeTruthy();
    expect(within(details).getByText('none of its own (see Boots next)')).toBeTruthy();
    const power = (await screen.findByText('Last error: no route to 10.0.0.50: check the BMC network')).closest('div')!.parentElement!;
    expect(within(power).getByText('unknown')).toBeTruthy();
    expect(within(power).getByText(/^last tried /)).toBeTruthy();
    expect(within(power).queryByText('not read yet')).toBeNull();
  });

  it('shows which loader the host gets and why, with the GRUB configuration it would read', async () => {
    renderApp('/hosts/1', {
      ...detail,
      'GET /api/v1/hosts/1/boot-config': () =>
        ok({ ...BOOT, loader: { kind: 'grub', architecture: 'uefi_x64', first_stage: 'shimx64.efi', source: 'group', reason_text: 'group "lab" uses the signed chain' } }),
    });
    const loader = await screen.findByRole('group', { name: 'Boot loader' });
    expect(within(loader).getByText('GRUB signed chain')).toBeTruthy();
    expect(within(loader).getByText('shimx64.efi')).toBeTruthy();
    expect(within(loader).getByText(/decided by its group/)).toBeTruthy();
    expect(within(loader).getByText('Why: group "lab" uses the signed chain.')).toBeTruthy();
    // The GRUB tab is the one shown (the machine reads it), with the path GRUB fetches over TFTP.
    expect(screen.getByRole('tab', { name: /GRUB config/ }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('Rendered GRUB configuration') as HTMLTextAreaElement).value).toContain('linux (tftp,10.0.0.1)/debian/linux');
    expect(screen.getByText('grub/host/x86_64/52:54:00:00:00:01.cfg')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: /iPXE script/ }));
    expect((await screen.findByLabelText('Rendered boot script') as HTMLTextAreaElement).value).toContain('kernel http://10.0.0.1:8080/boot/debian/linux');
  });

  it('says an iPXE-only machine has no GRUB configuration', async () => {
    renderApp('/hosts/1', {
      ...detail,
      'GET /api/v1/hosts/1/boot-config': () =>
        ok({ ...BOOT, loader: { kind: 'ipxe', architecture: 'bios', first_stage: 'undionly.kpxe', source: 'fixed', reason_text: 'BIOS machines boot iPXE' }, grub_config: null, grub_config_path: null }),
    });
    expect(await screen.findByText('No GRUB config: this machine gets iPXE only')).toBeTruthy();
    expect(screen.getByText(/BIOS · decided by fixed \(iPXE only\)/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: /iPXE script/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('marks the files missing from the boot root', async () => {
    const files = [
      { command: 'kernel', url: 'http://10.0.0.1:8080/boot/debian/linux', state: 'present' as const },
      { command: 'initrd', url: 'http://10.0.0.1:8080/boot/debian/initrd.gz', state: 'missing' as const },
    ];
    renderApp('/hosts/1', { ...detail, 'GET /api/v1/hosts/1/boot-config': () => ok({ ...BOOT, files }) });
    const table = await screen.findByRole('table', { name: 'Files the host would fetch' });
    const row = within(table).getByText('http://10.0.0.1:8080/boot/debian/initrd.gz').closest('tr')!;
    expect(within(row).getByText('missing')).toBeTruthy();
    const alert = screen.getByText('Files missing from the boot root').closest('[role=alert]')!;
    expect(alert.textContent).toContain('initrd.gz');
    expect(alert.textContent).not.toContain('boot/debian/linux,');
  });

  it('shows a template error for this host', async () => {
    renderApp('/hosts/1', { ...detail, 'GET /api/v1/hosts/1/boot-config': () => ok({ ...BOOT, render_error: 'line 3: undefined filter: nope' }) });
    expect(await screen.findByText('line 3: undefined filter: nope')).toBeTruthy();
  });

  it('deletes the host after confirmation and returns to the list', async () => {
    const fake = renderApp('/hosts/1', { ...detail, 'DELETE /api/v1/hosts/1': () => ok(host(1)) });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete host' }));
    expect(await screen.findByRole('heading', { name: 'Hosts' })).toBeTruthy();
    expect(callsTo(fake.calls, 'DELETE', '/hosts/1')).toHaveLength(1);
  });

  it('says when the host does not exist', async () => {
    renderApp('/hosts/99', { ...detail, 'GET /api/v1/hosts/99': () => fail(404, 'NOT_FOUND', 'host 99 not found') });
    expect(await screen.findByRole('heading', { name: 'Host not found' })).toBeTruthy();
  });
});
