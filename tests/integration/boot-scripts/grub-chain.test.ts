/**
 * The GRUB boot path (issue 21) through a real core: the configurations a
 * signed GRUB fetches over TFTP, decided like iPXE's scripts; the loader
 * settings and host field through the API; the preview's loader and GRUB
 * configuration; one real TFTP client (atftp) fetching a machine's
 * configuration by its path with colons.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { toolPresent } from '../../helpers/tools.js';
import { lintGrubConfig } from '../../unit/boot-scripts/grub/grub-lint.js';
import { freeUdpPort, loopbackNics } from '../tftp/tftp-harness.js';

const run = promisify(execFile);
const hasAtftp = toolPresent('atftp', 'the GRUB configuration TFTP test');

let t: TestCore;
let tftpPort: number;
let out: string;

beforeAll(async () => {
  t = await createTestCore({ nicReader: loopbackNics(), autoStartServices: ['tftp'] });
  tftpPort = await freeUdpPort();
  await t.core.area('tftp').settings.update({ port: tftpPort });
  await t.core.start();
  if (t.core.kernel.services.get('tftp').state !== 'running') throw new Error('tftp did not start');
  out = await mkdtemp(path.join(os.tmpdir(), 'bootwright-grub-'));
});
afterAll(async () => {
  await t.close();
  await rm(out, { recursive: true, force: true });
});

beforeEach(async () => {
  await t.core.kernel.settings.update({
    netboot: { default_action: 'menu', default_profile_id: null, record_unknown_hosts: true, menu_timeout_seconds: 10, boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'grub', groups: {} } },
  });
});

async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path: `/api/v1${url}`, ...(body !== undefined ? { body } : {}) } as never);
  return res as unknown as { status: number; body: { data: Record<string, unknown> & Record<string, never>; error?: string; details?: { field: string; message: string }[] } };
}

async function ok<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const res = await api(method, url, body);
  expect(res.status, res.body.error).toBeLessThan(300);
  return res.body.data as T;
}

/** What a GRUB machine at `ip` fetches over TFTP at `file` (the boot files' lookup, as the TFTP server does). */
async function grubFetch(file: string, ip = '127.0.0.1'): Promise<string> {
  const found = await t.core.area('boot-files').files.lookup(file, { ip, protocol: 'tftp', query: new URLSearchParams() });
  if (found.kind !== 'virtual') throw new Error(`${file} is not a virtual file: ${JSON.stringify(found)}`);
  const text = found.content.toString('utf8');
  expect(lintGrubConfig(text), text).toEqual([]);
  return text;
}

function eventsSince(id: number, kind: string): AppEvent[] {
  return t.core.kernel.events.since(id).filter((event) => event.kind === kind);
}
const lastEventId = () => t.core.kernel.events.all().at(-1)?.id ?? 0;

let macCounter = 0;
function nextMac(): string {
  macCounter += 1;
  return `52:54:00:c1:00:${macCounter.toString(16).padStart(2, '0')}`;
}

async function linuxProfile(name: string, cmdline = 'auto=true priority=critical url={{ server.base_url }}/seed/{{ host.mac }}'): Promise<number> {
  const profile = await ok<{ id: number }>('POST', '/profiles', { name, boot_type: 'linux', linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz'], cmdline } });
  return profile.id;
}

describe('GRUB configurations served to machines on the signed chain', () => {
  it("the entry configuration at each chain's prefix loads the machine's own from our address", async () => {
    for (const file of ['grub/grub.cfg', 'debian-installer/arm64/grub/grub.cfg']) {
      const text = await grubFetch(file);
      expect(text).toContain("set bw_server='(tftp,127.0.0.1)'");
      expect(text).toContain('/grub/host/${grub_cpu}/${net_default_mac}.cfg');
    }
  });

  it("a host's linux profile: kernel and initrd over TFTP with its rendered command line; the boot is recorded with loader grub", async () => {
    const mac = nextMac();
    const profileId = await linuxProfile('grub-linux');
    const host = await ok<{ id: number }>('POST', '/hosts', { mac, profile_id: profileId });
    const before = lastEventId();
    const text = await grubFetch(`grub/host/x86_64/${mac}.cfg`);
    const port = new URL(t.core.url()).port;
    expect(text).toContain(
      `if linux '(tftp,127.0.0.1)/debian/linux' 'auto=true' 'priority=critical' 'url=http://127.0.0.1:${port}/seed/${mac}'; then`,
    );
    expect(text).toContain("if initrd '(tftp,127.0.0.1)/debian/initrd.gz'; then");
    const [served] = eventsSince(before, 'boot.script_served');
    expect(served).toMatchObject({ mac, host_id: host.id, detail: { loader: 'grub', profile_id: profileId, reason: 'host_assignment', arch: 'x86_64', platform: 'efi' } });
    expect(await ok<{ arch: string; platform: string }>('GET', `/hosts/${host.id}`)).toMatchObject({ arch: 'x86_64', platform: 'efi' });
  });

  it('an unknown machine gets the netboot menu (every profile, local disk last), is discovered, and a choice the menu offers is honoured', async () => {
    const mac = nextMac();
    const profileId = await linuxProfile('grub-menu-choice');
    const menu = await grubFetch(`grub/host/arm64/${mac}.cfg`);
    expect(menu).toContain(`configfile '(tftp,127.0.0.1)/grub/host/arm64/${mac}/profile-${profileId}.cfg'`);
    expect(menu).toContain("menuentry 'Boot from the local disk' --id local {");
    expect(menu).toContain('set timeout=10');
    const discovered = (await ok<{ mac: string; discovered: boolean; arch: string }[]>('GET', `/hosts?q=${encodeURIComponent(mac)}`))[0];
    expect(discovered).toMatchObject({ mac, discovered: true, arch: 'arm64' });
    const chosen = await grubFetch(`grub/host/arm64/${mac}/profile-${profileId}.cfg`);
    expect(chosen).toContain("if linux '(tftp,127.0.0.1)/debian/linux'");
  });

  it("a choice the machine's own decision does not offer is not honoured: it gets its own", async () => {
    const mac = nextMac();
    const own = await ok<{ id: number }>('POST', '/profiles', { name: 'grub-own-local', boot_type: 'local' });
    const other = await linuxProfile('grub-not-offered');
    await ok('POST', '/hosts', { mac, profile_id: own.id });
    const text = await grubFetch(`grub/host/x86_64/${mac}/profile-${other}.cfg`);
    expect(text).not.toContain('linux ');
    expect(text).toMatch(/Booting from the local disk...'\nexit\n$/);
  });

  it('an iPXE script profile says it needs iPXE and what to change, and offers a retry or the local disk', async () => {
    const mac = nextMac();
    const profile = await ok<{ id: number }>('POST', '/profiles', { name: 'grub-ipxe-only', boot_type: 'ipxe_script', script: '#!ipxe\necho hi\n' });
    await ok('POST', '/hosts', { mac, profile_id: profile.id });
    const text = await grubFetch(`grub/host/x86_64/${mac}.cfg`);
    expect(text).toContain('profile "grub-ipxe-only" needs iPXE: it is a hand-written iPXE script');
    expect(text).not.toContain('chainloader');
    expect(text).toContain("menuentry 'Try again' --id retry {");
  });

  it('a template that fails shows the error and retries, and is recorded as failed with loader grub', async () => {
    const mac = nextMac();
    // Renders with the sample host at save time; fails for a host named "huge" (the template engine's allocation bound).
    const profileId = await linuxProfile('grub-failing', 'a={% if host.hostname == "huge" %}{% for i in (1..100000000) %}x{% endfor %}{% endif %}');
    await ok('POST', '/hosts', { mac, hostname: 'huge', profile_id: profileId });
    const before = lastEventId();
    const text = await grubFetch(`grub/host/x86_64/${mac}.cfg`);
    expect(text).toContain('could not be built');
    expect(text).not.toMatch(/^if linux/m);
    expect(eventsSince(before, 'boot.script_failed')[0]?.detail).toMatchObject({ script: 'host', error: expect.any(String) });
  });

  it('a MAC the access lists deny gets a message and goes back to its firmware; a path without a MAC is answered too', async () => {
    const mac = nextMac();
    await t.core.area('dhcp').access.add('blacklist', { mac });
    const before = lastEventId();
    const text = await grubFetch(`grub/host/x86_64/${mac}.cfg`);
    expect(text).toContain('access denied');
    expect(text.trim().split('\n').at(-1)).toBe('exit');
    expect(eventsSince(before, 'boot.denied')[0]?.detail).toMatchObject({ loader: 'grub' });
    expect(eventsSince(before, 'boot.script_served')).toHaveLength(0);
    expect(await grubFetch('grub/host/x86_64/.cfg')).toContain('no valid MAC');
  });

  it("an override's boot program renders for GRUB; one without a program is said to need iPXE", async () => {
    const mac = nextMac();
    const withProgram = nextMac();
    const scripts = t.core.area('boot-scripts');
    scripts.addBootOverride(async (input) => {
      if (input.mac === withProgram) {
        return { action: 'install', reason: 'netboot_task', reason_text: 'test installer', script: '#!ipxe\nboot\n', error: null, program: { kind: 'linux', label: 'test installer', kernel: `${input.server.boot_url}/inst/linux`, initrds: [], cmdline: 'x=1' } };
      }
      if (input.mac === mac) return { action: 'install', reason: 'netboot_task', reason_text: 'ipxe-only installer', script: '#!ipxe\nboot\n', error: null };
      return null;
    });
    expect(await grubFetch(`grub/host/x86_64/${withProgram}.cfg`)).toContain("if linux '(tftp,127.0.0.1)/inst/linux' 'x=1'; then");
    expect(await grubFetch(`grub/host/x86_64/${mac}.cfg`)).toContain('ipxe-only installer needs iPXE');
  });
});

describe('loader settings and the host field through the API', () => {
  it('stores a host boot_loader and refuses anything else', async () => {
    const host = await ok<{ id: number; boot_loader: string | null }>('POST', '/hosts', { mac: nextMac(), boot_loader: 'ipxe' });
    expect(host.boot_loader).toBe('ipxe');
    expect((await ok<{ boot_loader: string | null }>('PUT', `/hosts/${host.id}`, { boot_loader: null })).boot_loader).toBeNull();
    const bad = await api('PUT', `/hosts/${host.id}`, { boot_loader: 'syslinux' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('boot_loader');
  });

  it('refuses a group named twice in different case, and unknown loaders; nothing changes', async () => {
    const before = await ok<{ boot_loaders: unknown }>('GET', '/settings/netboot');
    const dup = await api('PUT', '/settings/netboot', { boot_loaders: { uefi_x64: 'ipxe', uefi_arm64: 'grub', groups: { Lab: 'ipxe', lab: 'grub' } } });
    expect(dup.status).toBe(400);
    expect(JSON.stringify(dup.body)).toContain('boot_loaders.groups');
    expect((await api('PUT', '/settings/netboot', { boot_loaders: { uefi_x64: 'syslinux', uefi_arm64: 'grub', groups: {} } })).status).toBe(400);
    expect((await api('PUT', '/settings/netboot', { boot_loaders: { uefi_x64: 'grub', groups: {} } })).status).toBe(400);
    expect(await ok<{ boot_loaders: unknown }>('GET', '/settings/netboot')).toEqual(before);
  });
});

describe('the boot-config preview', () => {
  it('names the loader and its first stage, and shows the GRUB configuration beside the iPXE script', async () => {
    const mac = nextMac();
    const profileId = await linuxProfile('grub-preview');
    const host = await ok<{ id: number }>('POST', '/hosts', { mac, profile_id: profileId, arch: 'x86_64' });
    const preview = await ok<{ loader: Record<string, unknown>; grub_config: string; grub_config_path: string; script: string }>('GET', `/hosts/${host.id}/boot-config`);
    expect(preview.loader).toMatchObject({ kind: 'grub', first_stage: 'shimx64.efi', source: 'architecture' });
    expect(preview.grub_config_path).toBe(`grub/host/x86_64/${mac}.cfg`);
    expect(preview.grub_config).toContain("if linux '");
    expect(preview.script).toMatch(/^#!ipxe/);
    await ok('PUT', '/settings/netboot', { boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'grub', groups: { racks: 'ipxe' } } });
    await ok('PUT', `/hosts/${host.id}`, { group: 'Racks' });
    expect((await ok<{ loader: Record<string, unknown> }>('GET', `/hosts/${host.id}/boot-config`)).loader).toMatchObject({ kind: 'ipxe', first_stage: 'ipxe.efi', source: 'group' });
  });

  it('a BIOS machine runs iPXE only: no GRUB configuration', async () => {
    const mac = nextMac();
    await grubFetch(`grub/host/x86_64/${mac}.cfg`);
    // It booted once through GRUB (efi); now it reports BIOS, as its iPXE would.
    const id = (await ok<{ id: number }[]>('GET', `/hosts?q=${encodeURIComponent(mac)}`))[0]!.id;
    await t.core.area('hosts').recordBoot(mac, { ip: '127.0.0.1', arch: 'i386', platform: 'pcbios' }, { discover: false });
    const preview = await ok<{ loader: Record<string, unknown>; grub_config: string | null }>('GET', `/hosts/${id}/boot-config`);
    expect(preview.loader).toMatchObject({ kind: 'ipxe', architecture: 'bios', first_stage: 'undionly.kpxe', source: 'fixed' });
    expect(preview.grub_config).toBeNull();
  });
});

describe.runIf(hasAtftp)('a real TFTP client', () => {
  it("atftp fetches a machine's GRUB configuration by its path (colons and all) and the entry configuration", async () => {
    const mac = nextMac();
    const profileId = await linuxProfile('grub-atftp');
    await ok('POST', '/hosts', { mac, profile_id: profileId });
    const local = path.join(out, 'host.cfg');
    await run('atftp', ['--tftp-timeout', '2', '-g', '-r', `grub/host/x86_64/${mac}.cfg`, '-l', local, '127.0.0.1', String(tftpPort)], { timeout: 30_000 });
    expect(await readFile(local, 'utf8')).toContain("if linux '(tftp,127.0.0.1)/debian/linux'");
    await run('atftp', ['--tftp-timeout', '2', '-g', '-r', 'grub/grub.cfg', '-l', local, '127.0.0.1', String(tftpPort)], { timeout: 30_000 });
    expect(await readFile(local, 'utf8')).toContain('configfile "${bw_server}/grub/host/${grub_cpu}/${net_default_mac}.cfg"');
  });
});
