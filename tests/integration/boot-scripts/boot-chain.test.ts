import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BootClient } from '../../../src-main/boot-files/virtual-files.js';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { lintIpxeScript } from '../../unit/boot-scripts/ipxe-lint.js';

let t: TestCore;
let port: number;

beforeAll(async () => {
  t = await createTestCore();
  // A real listening port (rendered scripts must name it); only HTTP, not the auto-start servers.
  await t.core.kernel.services.start('http');
  port = Number(new URL(t.core.url()).port);
});
afterAll(async () => t.close());

async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path: `/api/v1${path}`, ...(body !== undefined ? { body } : {}) } as never);
  const reply = res as unknown as { status: number; body: { data: Record<string, unknown>; error?: string } };
  return reply;
}

async function ok(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await api(method, path, body);
  expect(res.status, res.body.error).toBeLessThan(300);
  return res.body.data;
}

/** Fetches a boot path the way the TFTP and HTTP servers do: through the boot files' lookup. */
async function fetchBoot(path: string, query = '', ip = '127.0.0.1', protocol: BootClient['protocol'] = 'http'): Promise<string> {
  const found = await t.core.area('boot-files').files.lookup(path, { ip, protocol, query: new URLSearchParams(query) });
  if (found.kind !== 'virtual') throw new Error(`${path} is not a virtual file: ${JSON.stringify(found)}`);
  expect(found.contentType).toMatch(/^text\/plain/);
  return found.content.toString('utf8');
}

function identity(mac: string, extra = ''): string {
  // What iPXE sends after expanding ${mac} & co.
  return `mac=${encodeURIComponent(mac)}&arch=x86_64&platform=efi&uuid=12345678-1234-1234-1234-123456789abc&serial=SN%20042${extra}`;
}

function eventsSince(id: number, kind?: string): AppEvent[] {
  return t.core.kernel.events.since(id).filter((event) => kind === undefined || event.kind === kind);
}

function lastEventId(): number {
  return t.core.kernel.events.all().at(-1)?.id ?? 0;
}

let macCounter = 0;
function nextMac(): string {
  macCounter += 1;
  return `52:54:00:b0:00:${macCounter.toString(16).padStart(2, '0')}`;
}

beforeEach(async () => {
  await t.core.kernel.settings.update({ netboot: { default_action: 'menu', default_profile_id: null, record_unknown_hosts: true, menu_timeout_seconds: 10 } });
});

describe('the iPXE entry script', () => {
  it('is valid iPXE that identifies the machine and chains to its own script, retrying on failure', async () => {
    const script = await fetchBoot('ipxe/entry.ipxe');
    expect(lintIpxeScript(script)).toEqual([]);
    const lines = script.split('\n');
    expect(lines[0]).toBe('#!ipxe');
    expect(script).toContain(
      `set bw-script http://127.0.0.1:${port}/boot/ipxe/boot.ipxe?mac=\${mac}&arch=\${buildarch:uristring}&platform=\${platform:uristring}&uuid=\${uuid}&serial=\${serial:uristring}`,
    );
    expect(script).toContain('chain --autofree ${bw-script} && exit 0 ||');
    // The retry loop: a failed chain counts an attempt, waits and goes back.
    const chainAt = lines.findIndex((line) => line.startsWith('chain --autofree'));
    expect(lines[chainAt - 1]).toBe(':bw-fetch');
    expect(lines.slice(chainAt + 1)).toEqual(expect.arrayContaining(['inc bw-try', 'goto bw-fetch']));
    expect(script).toMatch(/sleep \d+\ngoto bw-fetch/);
    // Over TFTP too (the first stage may fetch it there).
    expect(await fetchBoot('ipxe/entry.ipxe', '', '127.0.0.1', 'tftp')).toBe(script);
  });
});

describe('over real HTTP (/boot/)', () => {
  it('serves the entry script and a host script to an HTTP client without credentials', async () => {
    const profile = await ok('POST', '/profiles', { name: 'Over HTTP', boot_type: 'chain', chain: { url: 'http://example.test/http.ipxe' } });
    const mac = nextMac();
    await ok('POST', '/hosts', { mac, profile_id: profile.id });
    const entry = await fetch(`${t.core.url()}/boot/ipxe/entry.ipxe`);
    expect(entry.status).toBe(200);
    const entryText = await entry.text();
    expect(entryText).toBe(await fetchBoot('ipxe/entry.ipxe'));
    expect(entry.headers.get('content-length')).toBe(String(Buffer.byteLength(entryText)));
    const before = lastEventId();
    const host = await fetch(`${t.core.url()}/boot/ipxe/boot.ipxe?${identity(mac)}`);
    expect(host.status).toBe(200);
    expect(await host.text()).toContain('chain --autofree http://example.test/http.ipxe');
    expect(eventsSince(before, 'boot.script_served')[0]).toMatchObject({ mac, ip: '127.0.0.1' });
  });
});

describe('a known host', () => {
  it('gets its profile rendered for it, its boot is recorded and boot.script_served emitted', async () => {
    const profile = await ok('POST', '/profiles', {
      name: 'Chain linux',
      boot_type: 'linux',
      linux: { kernel: 'debian/{{ variables.release }}/linux', initrds: ['debian/{{ variables.release }}/initrd.gz'], cmdline: 'hostname={{ host.hostname }} serial={{ client.serial }}' },
      variables: { release: 'bookworm' },
    });
    const mac = nextMac();
    const host = await ok('POST', '/hosts', { mac, hostname: 'node1', profile_id: profile.id });
    const before = lastEventId();

    const script = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(lintIpxeScript(script)).toEqual([]);
    const base = `http://127.0.0.1:${port}/boot`;
    expect(script).toContain(`kernel ${base}/debian/bookworm/linux initrd=initrd0 hostname=node1 serial=SN 042`);
    expect(script).toContain(`initrd --name initrd0 ${base}/debian/bookworm/initrd.gz`);
    expect(script).toMatch(/\nboot\n$/);

    const stored = t.core.area('hosts').get(host.id as number)!;
    expect(stored).toMatchObject({ last_seen_ip: '127.0.0.1', arch: 'x86_64', platform: 'efi' });
    expect(Date.now() - Date.parse(stored.last_boot_at!)).toBeLessThan(60_000);
    const served = eventsSince(before, 'boot.script_served');
    expect(served).toHaveLength(1);
    expect(served[0]).toMatchObject({ mac, ip: '127.0.0.1', host_id: host.id });
    expect(served[0]!.detail).toMatchObject({ arch: 'x86_64', platform: 'efi', profile: 'Chain linux', profile_id: profile.id, reason: 'host_assignment', serial: 'SN 042' });

    // The preview shows exactly what was served, with the files it fetches.
    const preview = (await api('GET', `/hosts/${String(host.id)}/boot-config`)).body.data;
    expect(preview).toMatchObject({ action: 'profile', reason: 'host_assignment', profile: { id: profile.id, name: 'Chain linux', boot_type: 'linux' }, render_error: null });
    expect(preview.files).toEqual([
      { command: 'kernel', url: `${base}/debian/bookworm/linux`, state: 'missing' },
      { command: 'initrd', url: `${base}/debian/bookworm/initrd.gz`, state: 'missing' },
    ]);
    expect(preview.entry_url).toBe(`${base}/ipxe/entry.ipxe`);
    expect(String(preview.script_url)).toContain(`${base}/ipxe/boot.ipxe?mac=${mac}&arch=x86_64&platform=efi`);
  });

  it('falls back to its group default, and a disabled host boots locally', async () => {
    const groupProfile = await ok('POST', '/profiles', { name: 'Group chain', boot_type: 'chain', chain: { url: 'http://example.test/group.ipxe' }, default_for_groups: ['rack-7'] });
    const mac = nextMac();
    const host = await ok('POST', '/hosts', { mac, group: 'Rack-7' });
    const script = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(script).toContain('chain --autofree http://example.test/group.ipxe');
    const preview = (await api('GET', `/hosts/${String(host.id)}/boot-config`)).body.data;
    expect(preview).toMatchObject({ reason: 'group_default', profile: { id: groupProfile.id } });
    expect(String(preview.reason_text)).toContain('group "Rack-7" defaults to profile "Group chain"');

    await ok('PUT', `/hosts/${String(host.id)}`, { enabled: false });
    const local = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(lintIpxeScript(local)).toEqual([]);
    expect(local).toContain('exit 0');
    expect(local).not.toContain('chain');
    expect((await api('GET', `/hosts/${String(host.id)}/boot-config`)).body.data).toMatchObject({ action: 'local', reason: 'host_disabled', profile: null });
  });

  it('honours a menu choice only for a profile its menu offers', async () => {
    const offered = await ok('POST', '/profiles', { name: 'Offered', boot_type: 'chain', chain: { url: 'http://example.test/offered' } });
    const hidden = await ok('POST', '/profiles', { name: 'Hidden', boot_type: 'chain', chain: { url: 'http://example.test/hidden' } });
    const menu = await ok('POST', '/profiles', { name: 'Host menu', boot_type: 'menu', menu: { entries: [{ profile_id: offered.id }], timeout_seconds: 0 } });
    const mac = nextMac();
    await ok('POST', '/hosts', { mac, profile_id: menu.id });

    const menuScript = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(lintIpxeScript(menuScript)).toEqual([]);
    expect(menuScript).toContain(`item p${String(offered.id)} Offered`);
    expect(menuScript).toContain('choose --default local bw-choice');
    expect(menuScript).toContain(`chain --autofree http://127.0.0.1:${port}/boot/ipxe/boot.ipxe?mac=\${mac}`);

    const before = lastEventId();
    expect(await fetchBoot('ipxe/boot.ipxe', identity(mac, `&profile=${String(offered.id)}`))).toContain('chain --autofree http://example.test/offered');
    expect(eventsSince(before, 'boot.script_served')[0]!.detail).toMatchObject({ profile: 'Offered', reason: 'menu_choice' });
    // Not offered: the machine gets its own decision (the menu) again.
    expect(await fetchBoot('ipxe/boot.ipxe', identity(mac, `&profile=${String(hidden.id)}`))).toBe(menuScript);
  });
});

describe('an unknown machine', () => {
  it('is recorded once as a discovered host and gets the netboot default menu', async () => {
    await ok('POST', '/profiles', { name: 'Zeta menu entry', boot_type: 'local' });
    const mac = nextMac();
    const before = lastEventId();
    // Two first requests at once still record one host.
    const [script, again] = await Promise.all([fetchBoot('ipxe/boot.ipxe', identity(mac)), fetchBoot('ipxe/boot.ipxe', identity(mac))]);
    expect(again).toBe(script);
    expect(lintIpxeScript(script!)).toEqual([]);
    expect(script).toContain('menu Bootwright boot menu (bootwright)');
    expect(script).toMatch(/item p\d+ Zeta menu entry/);
    expect(script).toContain('choose --timeout 10000 --default local bw-choice');

    const discovered = t.core.area('hosts').all().filter((host) => host.mac === mac);
    expect(discovered).toHaveLength(1);
    expect(discovered[0]).toMatchObject({ discovered: true, enabled: true, profile_id: null, arch: 'x86_64', platform: 'efi', last_seen_ip: '127.0.0.1' });
    const events = eventsSince(before);
    expect(events.filter((event) => event.kind === 'host.discovered')).toHaveLength(1);
    expect(events.filter((event) => event.kind === 'boot.script_served').map((event) => event.detail?.reason)).toEqual(['global_default', 'global_default']);

    // Adopted in one step: flag cleared and a profile assigned.
    const target = await ok('POST', '/profiles', { name: 'Adopted target', boot_type: 'chain', chain: { url: 'http://example.test/adopted' } });
    const adopted = await ok('PUT', `/hosts/${discovered[0]!.id}`, { discovered: false, profile_id: target.id, hostname: 'adopted' });
    expect(adopted).toMatchObject({ discovered: false, profile_id: target.id });
    expect(await fetchBoot('ipxe/boot.ipxe', identity(mac))).toContain('chain --autofree http://example.test/adopted');
  });

  it('boots locally or the default profile per the settings, and is not recorded when recording is off', async () => {
    const defaultProfile = await ok('POST', '/profiles', { name: 'Unknown default', boot_type: 'chain', chain: { url: 'http://example.test/default' } });
    await ok('PUT', '/settings/netboot', { default_action: 'profile', default_profile_id: defaultProfile.id, record_unknown_hosts: false });
    const mac = nextMac();
    expect(await fetchBoot('ipxe/boot.ipxe', identity(mac))).toContain('chain --autofree http://example.test/default');
    await ok('PUT', '/settings/netboot', { default_action: 'local', default_profile_id: null });
    const local = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(local).toContain('exit 0');
    expect(local).toContain('netboot default is the local disk');
    expect(t.core.area('hosts').findByMac(mac)).toBeUndefined();
  });
});

describe('refusals and failures at boot', () => {
  it('answers a denied MAC with a script that prints "access denied" and returns to the firmware', async () => {
    const mac = nextMac();
    await t.core.area('dhcp').access.add('blacklist', { mac });
    const before = lastEventId();
    const script = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(lintIpxeScript(script)).toEqual([]);
    expect(script).toContain('access denied');
    expect(script).toMatch(/exit 0\n$/);
    expect(eventsSince(before, 'boot.denied')).toHaveLength(1);
    expect(eventsSince(before, 'boot.denied')[0]).toMatchObject({ mac, level: 'warn' });
    expect(eventsSince(before, 'boot.script_served')).toHaveLength(0);
    expect(t.core.area('hosts').findByMac(mac)).toBeUndefined();
  });

  it('serves a fallback that shows the error and retries when a template fails for this host', async () => {
    // Renders with the sample host at save time; fails for a host named "huge" (the allocation bound).
    const template = '#!ipxe\n{% if host.hostname == "huge" %}{% for i in (1..100000000) %}x{% endfor %}{% endif %}\necho fine\n';
    const profile = await ok('POST', '/profiles', { name: 'Data dependent', boot_type: 'ipxe_script', script: template });
    const mac = nextMac();
    const host = await ok('POST', '/hosts', { mac, hostname: 'huge', profile_id: profile.id });
    const before = lastEventId();
    const script = await fetchBoot('ipxe/boot.ipxe', identity(mac));
    expect(lintIpxeScript(script)).toEqual([]);
    expect(script).toContain(`echo Bootwright could not build the boot script of profile Data dependent (id ${String(profile.id)}):`);
    expect(script).toContain('echo line 2: memory alloc limit exceeded');
    expect(script).toMatch(/sleep \d+\nexit 1\n$/);
    const failed = eventsSince(before, 'boot.script_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 'error', mac, host_id: host.id });
    const preview = (await api('GET', `/hosts/${String(host.id)}/boot-config`)).body.data;
    expect(String(preview.render_error)).toContain('line 2');
    expect(preview.script).toBe(script);
  });

  it('answers a request without a usable MAC with an explanation, not a host script', async () => {
    for (const query of ['', 'mac=', 'mac=zz', 'arch=x86_64']) {
      const script = await fetchBoot('ipxe/boot.ipxe', query);
      expect(script).toContain('names no valid MAC address');
      expect(lintIpxeScript(script)).toEqual([]);
    }
    // TFTP has no query string: the per-host script needs HTTP.
    expect(await fetchBoot('ipxe/boot.ipxe', '', '127.0.0.1', 'tftp')).toContain('names no valid MAC address');
  });

  it('leaves other paths to the disk', async () => {
    const found = await t.core.area('boot-files').files.lookup('ipxe/other.ipxe', { ip: '127.0.0.1', protocol: 'http', query: new URLSearchParams() });
    expect(found.kind).not.toBe('virtual');
  });
});

describe('boot-config preview', () => {
  it('names the global default and a denied host, and 404s for a missing host', async () => {
    const mac = nextMac();
    const host = await ok('POST', '/hosts', { mac });
    const preview = (await api('GET', `/hosts/${String(host.id)}/boot-config`)).body.data;
    expect(preview).toMatchObject({ action: 'menu', reason: 'global_default', profile: null, client_ip: null });
    expect(lintIpxeScript(String(preview.script))).toEqual([]);
    // Our address per subnet the machine may boot from (preview-servers.ts; this test core listens on 127.0.0.1 only, so that is the address).
    const servers = preview.servers as { subnet: string; address: string; entry_url: string }[];
    const expected = t.core.kernel.network.served().flatMap((nic) => nic.ipv4.map((subnet) => subnet.subnet));
    expect(servers.map((entry) => entry.subnet)).toEqual([...new Set(expected)]);
    for (const entry of servers) expect(entry).toMatchObject({ address: '127.0.0.1', entry_url: `http://127.0.0.1:${port}/boot/ipxe/entry.ipxe` });
    await t.core.area('dhcp').access.add('blacklist', { mac });
    expect((await api('GET', `/hosts/${String(host.id)}/boot-config`)).body.data).toMatchObject({ action: 'denied', reason: 'access_denied' });
    expect((await api('GET', '/hosts/999999/boot-config')).status).toBe(404);
    // The preview records nothing.
    expect(t.core.area('hosts').get(host.id as number)!.last_boot_at).toBeNull();
  });
});
