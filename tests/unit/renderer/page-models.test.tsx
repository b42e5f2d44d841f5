// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootloaderCheckReport } from '@contracts/boot-files';
import type { DhcpGuardStatus, DhcpSettings, ForeignDhcpServer } from '@contracts/dhcp';
import type { Profile } from '@contracts/profiles';
import type { InterfacesSettingsView as InterfacesView } from '@contracts/settings';
import { parseUnifiedDiff } from '../../../src-renderer/src/editor/DiffView.js';
import { createLiveEventsStore, LIVE_EVENTS_KEPT } from '../../../src-renderer/src/live/live-events-store.js';
import { createInvalidator, keysFor } from '../../../src-renderer/src/live/live-invalidation.js';
import { bucketByTime } from '../../../src-renderer/src/pages/dashboard/boot-buckets.js';
import { setupWarnings } from '../../../src-renderer/src/pages/dashboard/DashboardWarnings.js';
import { describeServer, switchToProxy } from '../../../src-renderer/src/pages/dhcp/rogue-guard-model.js';
import { dhcpErrorPath, optionFromForm, optionValueProblem, settingsFromForm, settingsToForm, subnetFromForm, subnetProblems, subnetToForm } from '../../../src-renderer/src/pages/dhcp/dhcp-form-model.js';
import { recordBody, recordValueProblem } from '../../../src-renderer/src/pages/dns/DnsRecordDialog.js';
import { domainProblem, upstreamErrorIndex } from '../../../src-renderer/src/pages/dns/DnsSettingsForm.js';
import { lineErrorsFrom } from '../../../src-renderer/src/pages/power/BmcImportDialog.js';
import { previewCron } from '../../../src-renderer/src/pages/power/cron-preview.js';
import { profileBody, profileErrorPath, profileProblems, profileToForm } from '../../../src-renderer/src/pages/profiles/profile-form-model.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('DNS record form', () => {
  it('checks the value by type', () => {
    expect(recordValueProblem('A', '10.0.0.5')).toBeNull();
    expect(recordValueProblem('A', '{server_ip}')).toBeNull();
    expect(recordValueProblem('A', '2001:db8::1')).toContain('IPv4');
    expect(recordValueProblem('AAAA', '2001:db8::1')).toBeNull();
    expect(recordValueProblem('CNAME', 'www.example.com.')).toBeNull();
    expect(recordValueProblem('MX', 'bad name!')).toContain('host name');
    expect(recordValueProblem('TXT', 'x'.repeat(4001))).toContain('4000');
    expect(recordValueProblem('TXT', '')).toContain('Enter');
  });

  it('sends a priority only for MX and a null subnet when empty', () => {
    const base = { name: ' pxe ', value: ' 10.0.0.5 ', ttl: '300', priority: 10, subnet: ' ', enabled: true, comment: 'c' };
    expect(recordBody({ ...base, type: 'A' })).toEqual({ name: 'pxe', type: 'A', value: '10.0.0.5', ttl: 300, priority: null, subnet: null, enabled: true, comment: 'c' });
    expect(recordBody({ ...base, type: 'MX', value: 'mail', subnet: '10.0.0.0/24' })).toMatchObject({ priority: 10, subnet: '10.0.0.0/24' });
  });

  it('finds the upstream entry a server error names, and checks the domain', () => {
    expect(upstreamErrorIndex('upstream entry "dns.example.com": "dns.example.com" is not an IP address', ['1.1.1.1', 'dns.example.com'])).toBe(1);
    expect(upstreamErrorIndex('at most 16 entries', ['1.1.1.1'])).toBeNull();
    expect(domainProblem('lab.example')).toBeNull();
    expect(domainProblem('-bad.example')).toContain('Labels');
    expect(domainProblem('')).toContain('Enter');
  });
});

describe('DHCP form model', () => {
  const settings: DhcpSettings = {
    interfaces: [{ name: 'eth1', mode: 'server' }],
    subnets: [
      {
        subnet: '192.168.50.0/24',
        ranges: [{ start: '192.168.50.100', end: '192.168.50.200' }],
        lease_time_seconds: null,
        router: '192.168.50.1',
        dns_servers: null,
        domain_name: null,
        ntp_servers: ['192.168.50.1'],
        options: [
          { code: 66, type: 'string', value: 'tftp.lab' },
          { code: 150, type: 'ips', value: ['192.168.50.2', '192.168.50.3'] },
        ],
      },
    ],
    default_lease_time_seconds: 3600,
    authoritative: true,
    ping_check: false,
    decline_quarantine_seconds: 86400,
    access_mode: 'whitelist',
    rogue_guard: true,
    rogue_probe_timeout_ms: 1500,
    force: false,
    ipv6_ra: 'auto',
  };

  it('round-trips the settings through the form (without access_mode, every detected interface listed)', () => {
    const form = settingsToForm(settings, ['eth0', 'eth1']);
    expect(form.interfaces).toEqual([
      { name: 'eth0', mode: 'off' },
      { name: 'eth1', mode: 'server' },
    ]);
    expect(form.subnets[0]!.dns_servers).toBe('');
    expect(form.subnets[0]!.options[1]!.value).toBe('192.168.50.2, 192.168.50.3');
    const { access_mode: _mode, ...rest } = settings;
    expect(settingsFromForm(form)).toEqual(rest);
  });

  it('leaves router and DNS empty for the automatic default and takes "none" for none, both ways', () => {
    const form = settingsToForm(settings, []);
    const subnet = form.subnets[0]!;
    expect(subnetFromForm({ ...subnet, router: '', dns_servers: '' })).toMatchObject({ router: null, dns_servers: null });
    expect(subnetFromForm({ ...subnet, router: 'None', dns_servers: 'none' })).toMatchObject({ router: 'none', dns_servers: [] });
    expect(subnetToForm({ ...settings.subnets[0]!, router: 'none', dns_servers: [] })).toMatchObject({ router: 'none', dns_servers: 'none' });
    expect(subnetProblems({ ...subnet, router: 'none', dns_servers: 'none' }, 0)).toEqual({});
    expect(subnetProblems({ ...subnet, router: 'gateway' }, 0)).toHaveProperty(['subnets.0.router']);
  });

  it('types custom option values and checks them', () => {
    expect(optionFromForm({ code: '42', type: 'uint16', value: '512' })).toEqual({ code: 42, type: 'uint16', value: 512 });
    expect(optionFromForm({ code: 1, type: 'bool', value: 'true' })).toEqual({ code: 1, type: 'bool', value: true });
    expect(optionValueProblem({ code: 1, type: 'uint8', value: '256' })).toContain('0–255');
    expect(optionValueProblem({ code: 1, type: 'hex', value: '0a:1b' })).toBeNull();
    expect(optionValueProblem({ code: 1, type: 'ip', value: 'x' })).toContain('IPv4');
  });

  it('flags subnet problems by form path and maps server paths to form fields', () => {
    const form = settingsToForm(settings, []);
    form.subnets[0]!.subnet = '192.168.50.7/24';
    form.subnets[0]!.ranges[0]!.end = 'nope';
    form.subnets[0]!.dns_servers = '1.1.1.1, x';
    expect(Object.keys(subnetProblems(form.subnets[0]!, 0)).sort()).toEqual(['subnets.0.dns_servers', 'subnets.0.ranges.0.end', 'subnets.0.subnet']);
    expect(dhcpErrorPath('subnets.0.dns_servers.1')).toBe('subnets.0.dns_servers');
    expect(dhcpErrorPath('subnets.1.ranges.0.start')).toBe('subnets.1.ranges.0.start');
    expect(dhcpErrorPath('subnets.0.options.2.value.1')).toBe('subnets.0.options.2.value');
    expect(dhcpErrorPath('access_mode')).toBeNull();
  });
});

describe('profile form model', () => {
  const linux: Profile = {
    id: 3,
    name: 'Debian',
    description: '',
    boot_type: 'linux',
    script: '#!ipxe\nboot\n',
    linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz'], cmdline: 'auto=true' },
    chain: null,
    sanboot: null,
    menu: null,
    variables: { mirror: 'http://deb.debian.org' },
    default_for_groups: ['lab'],
    script_version: 2,
    created_at: '2024-05-01T00:00:00Z',
    updated_at: '2024-05-01T00:00:00Z',
  };

  it('sends only the settings of the chosen type', () => {
    const form = profileToForm(linux);
    expect(profileBody(form)).toEqual({
      name: 'Debian',
      boot_type: 'linux',
      description: '',
      variables: { mirror: 'http://deb.debian.org' },
      default_for_groups: ['lab'],
      linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz'], cmdline: 'auto=true' },
    });
    const chain = profileBody({ ...form, boot_type: 'chain', chain_url: ' http://x/y.ipxe ', comment: ' switch ' });
    expect(chain).toMatchObject({ chain: { url: 'http://x/y.ipxe' }, comment: 'switch' });
    expect(chain).not.toHaveProperty('linux');
    expect(chain).not.toHaveProperty('script');
    const menu = profileBody({ ...form, boot_type: 'menu', menu_entries: [{ profile_id: '4', label: '' }, { profile_id: '5', label: 'Rescue' }], menu_default: '5', menu_timeout: '0' });
    expect(menu.menu).toEqual({ title: 'Bootwright', entries: [{ profile_id: 4 }, { profile_id: 5, label: 'Rescue' }], default_entry: 5, timeout_seconds: 0 });
    expect(profileBody({ ...form, boot_type: 'ipxe_script', script: '#!ipxe\nexit\n' }).script).toBe('#!ipxe\nexit\n');
  });

  it('checks names, required settings and variable names', () => {
    const form = profileToForm(null);
    expect(profileProblems({ ...form, name: '' }).name).toBeTruthy();
    expect(profileProblems({ ...form, name: 'a;b' }).name).toContain('without');
    expect(profileProblems({ ...form, name: 'x', boot_type: 'linux' }).kernel).toBeTruthy();
    expect(profileProblems({ ...form, name: 'x', boot_type: 'menu' }).menu_entries).toBeTruthy();
    expect(profileProblems({ ...form, name: 'x', variables: [{ name: 'Bad-Name', value: '' }] })['variables.0.name']).toBeTruthy();
    expect(profileProblems({ ...form, name: 'x' })).toEqual({});
  });

  it('maps server fields to form fields', () => {
    expect(profileErrorPath('linux.kernel')).toBe('kernel');
    expect(profileErrorPath('linux.initrds.2')).toBe('initrds');
    expect(profileErrorPath('menu.entries.1.profile_id')).toBe('menu_entries.1.profile_id');
    expect(profileErrorPath('menu')).toBe('menu_entries');
    expect(profileErrorPath('script')).toBe('script');
    expect(profileErrorPath('nonsense')).toBeNull();
  });
});

describe('dashboard', () => {
  const interfaces = (served: boolean): InterfacesView => ({
    served: 'auto',
    server_addresses: [],
    detected_interfaces: [],
    resolved_addresses: served ? [{ interface: 'eth0', subnet: '10.0.0.0/24', address: '10.0.0.1', source: 'detected', served: true }] : [],
  });
  const check = (errors: number, files = 1): BootloaderCheckReport => ({
    ok: errors === 0,
    checked_at: '2024-05-01T00:00:00Z',
    files: Array.from({ length: files }, () => ({}) as BootloaderCheckReport['files'][number]),
    profiles: [],
    problems: Array.from({ length: errors }, () => ({ code: 'missing', severity: 'error' as const, message: 'ipxe.efi is missing', fix: 'restart', name: 'ipxe.efi', root: '/boot', architectures: [], seen: true, ignored: false })),
    architectures: [],
    boot_root: '/boot',
    tftp_root: null,
    ignored_architectures: [],
  });

  it('warns about a missing served interface and boot loader problems, each with the page that fixes it', () => {
    expect(setupWarnings({ interfaces: interfaces(true), check: check(0) })).toEqual([]);
    const warnings = setupWarnings({ interfaces: interfaces(false), check: check(2) });
    expect(warnings.map((w) => [w.id, w.link])).toEqual([
      ['no-served-interface', '/settings?tab=interfaces'],
      ['boot-loader-problems', '/services/tftp?tab=bootloaders'],
    ]);
    expect(setupWarnings({ check: check(0, 0) })[0]).toMatchObject({ id: 'no-boot-loader', link: '/services/dhcp?tab=archmap' });
  });

  it('warns about another DHCP server: kept out of server mode (red), served anyway (orange), seen while serving', () => {
    const router: ForeignDhcpServer = { server_id: '192.168.88.1', source_ip: '192.168.88.1', mac: '52:54:00:aa:bb:01', offered_ip: '192.168.88.120', subnet_mask: '255.255.255.0', router: '192.168.88.1', lease_seconds: 3600 };
    const guard: DhcpGuardStatus = {
      interfaces: [
        { interface: 'eth0', state: 'blocked', probed_at: '2024-05-01T00:00:00Z', foreign: [router], message: '…' },
        { interface: 'eth1', state: 'forced', probed_at: '2024-05-01T00:00:00Z', foreign: [router], message: '…' },
        { interface: 'eth2', state: 'clear', probed_at: '2024-05-01T00:00:00Z', foreign: [], message: '…' },
      ],
      sightings: [
        { interface: 'eth0', server_id: '192.168.88.1', how: 'probe', client_mac: null, server: router, first_seen: '2024-05-01T00:00:00Z', last_seen: '2024-05-01T00:00:00Z', count: 1 },
        { interface: 'eth3', server_id: '10.3.0.1', how: 'client_request', client_mac: '52:54:00:00:00:09', server: null, first_seen: '2024-05-01T00:00:00Z', last_seen: '2024-05-01T00:00:00Z', count: 2 },
      ],
    };
    const warnings = setupWarnings({ guard });
    expect(warnings.map((w) => [w.id, w.color, w.link])).toEqual([
      ['dhcp-foreign-eth0', 'red', '/services/dhcp'],
      ['dhcp-foreign-eth1', 'orange', '/services/dhcp'],
      ['dhcp-foreign-seen', 'orange', '/services/dhcp'],
    ]);
    expect(warnings[0]!.text).toContain('192.168.88.1 (offers 192.168.88.120/255.255.255.0, router 192.168.88.1, MAC 52:54:00:aa:bb:01)');
    expect(warnings[2]!.text).toContain('10.3.0.1 on eth3');
    expect(warnings[2]!.text).not.toContain('eth0');
    expect(setupWarnings({ guard: { interfaces: [guard.interfaces[2]!], sightings: [] } })).toEqual([]);
    expect(describeServer({ ...router, mac: null, router: null, source_ip: '192.168.88.9' })).toBe('192.168.88.1 (from 192.168.88.9, offers 192.168.88.120/255.255.255.0)');
  });

  it('switches one interface to proxy mode and keeps the others', () => {
    expect(switchToProxy([{ name: 'eth0', mode: 'server' }, { name: 'eth1', mode: 'server' }], 'eth0')).toEqual([{ name: 'eth0', mode: 'proxy' }, { name: 'eth1', mode: 'server' }]);
    expect(switchToProxy([{ name: 'eth1', mode: 'server' }], 'eth0')).toEqual([{ name: 'eth1', mode: 'server' }, { name: 'eth0', mode: 'proxy' }]);
  });

  it('counts boots per five minutes over the last hour', () => {
    const now = Date.parse('2024-05-01T12:02:00Z');
    const bars = bucketByTime(['2024-05-01T12:01:00Z', '2024-05-01T12:00:30Z', '2024-05-01T11:31:00Z', '2024-05-01T10:00:00Z'], now);
    expect(bars).toHaveLength(12);
    expect(bars.reduce((sum, bar) => sum + bar.value, 0)).toBe(3);
    expect(bars[11]!.value).toBe(2);
  });
});

describe('live events', () => {
  it('knows which cached reads an event makes stale', () => {
    expect(keysFor('service.started')).toEqual([['services'], ['status'], ['dhcp', 'guard']]);
    expect(keysFor('dhcp.foreign_server')).toEqual([['dhcp', 'guard'], ['boot-timeline']]);
    expect(keysFor('dhcp.lease.granted')).toEqual([['leases'], ['boot-timeline']]);
    expect(keysFor('dns.record.deleted')).toEqual([['dns', 'records']]);
    expect(keysFor('auth.login')).toEqual([]);
  });

  it('turns a burst of events into one refetch per key', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const invalidator = createInvalidator(client, 500);
    for (let i = 0; i < 50; i++) invalidator.eventArrived('dhcp.lease.granted');
    invalidator.eventArrived('service.stopped');
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([['leases'], ['boot-timeline'], ['services'], ['status'], ['dhcp', 'guard']]);
    invalidator.dispose();
  });

  it('keeps the newest events once each, and reports a paused stream', () => {
    const store = createLiveEventsStore();
    const event = (id: number) => ({ id, kind: 'x', level: 'info' as const, message: `m${id}`, mac: null, ip: null, host_id: null, detail: null, created_at: '2024-05-01T00:00:00Z' });
    for (let id = 1; id <= LIVE_EVENTS_KEPT + 5; id++) store.getState().received(event(id));
    store.getState().received(event(LIVE_EVENTS_KEPT + 5));
    expect(store.getState().events).toHaveLength(LIVE_EVENTS_KEPT);
    expect(store.getState().events[0]!.id).toBe(LIVE_EVENTS_KEPT + 5);
    store.getState().failed('network down');
    expect(store.getState()).toMatchObject({ status: 'paused', error: 'network down' });
    store.getState().received(event(1000));
    expect(store.getState().status).toBe('live');
  });
});

describe('script diff', () => {
  it('numbers old and new lines from the hunk headers', () => {
    const lines = parseUnifiedDiff('--- profile-1.ipxe\tversion 1\n+++ profile-1.ipxe\tversion 2\n@@ -1,3 +1,3 @@\n #!ipxe\n-echo old\n+echo new\n boot\n');
    expect(lines.map((line) => [line.kind, line.oldLine, line.newLine, line.text])).toEqual([
      ['header', null, null, '--- profile-1.ipxe\tversion 1'],
      ['header', null, null, '+++ profile-1.ipxe\tversion 2'],
      ['hunk', null, null, '@@ -1,3 +1,3 @@'],
      ['context', 1, 1, '#!ipxe'],
      ['del', 2, null, 'echo old'],
      ['add', null, 2, 'echo new'],
      ['context', 3, 3, 'boot'],
    ]);
  });
});

describe('power helpers', () => {
  it('reads CSV import problems by line and column', () => {
    expect(lineErrorsFrom([{ field: 'csv.line3.address', message: 'is required' }, { field: 'csv.line1', message: 'bad header' }, { field: 'body', message: 'empty' }])).toEqual([
      { line: 3, column: 'address', message: 'is required' },
      { line: 1, column: null, message: 'bad header' },
      { line: 0, column: 'body', message: 'empty' },
    ]);
  });

  it('previews cron runs in a time zone and explains bad expressions', () => {
    const preview = previewCron('0 7 * * 1-5', 'UTC', 3, new Date('2024-05-03T08:00:00Z'));
    expect(preview.ok && preview.runs.map((run) => run.toISOString())).toEqual(['2024-05-06T07:00:00.000Z', '2024-05-07T07:00:00.000Z', '2024-05-08T07:00:00.000Z']);
    const berlin = previewCron('0 7 * * *', 'Europe/Berlin', 1, new Date('2024-05-03T08:00:00Z'));
    expect(berlin.ok && berlin.runs[0]!.toISOString()).toBe('2024-05-04T05:00:00.000Z');
    expect(previewCron('0 7 * *', 'UTC')).toMatchObject({ ok: false, error: expect.stringContaining('5 fields') });
    expect(previewCron('99 7 * * *', 'UTC').ok).toBe(false);
    expect(previewCron('', 'UTC').ok).toBe(false);
  });
});
