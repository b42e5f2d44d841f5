import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { lintIpxeScript } from '../../unit/boot-scripts/ipxe-lint.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/* The shipped catalog in the netboot default menu: what a machine without a profile can pick and boot interactively. */

let t: TestCore;
let base: string;
const events: AppEvent[] = [];

beforeAll(async () => {
  t = await createTestCore();
  await t.core.kernel.services.start('http');
  base = t.core.url();
  t.core.kernel.events.subscribe((event) => events.push(event));
  // Memtest86+ for BIOS as a technician would copy it from Debian's package.
  const local = path.join(t.core.area('boot-files').files.root, 'netboot', 'memtest86plus-bios', '7', 'x86_64');
  await mkdir(local, { recursive: true });
  await writeFile(path.join(local, 'memtest86+x64.bin'), 'placeholder');
});
afterAll(async () => t?.close());

/** The machine's own script over real HTTP /boot/, as a BIOS iPXE (an i386 build) asks for it. */
async function script(mac: string, extra = '', platform = 'pcbios', arch = 'i386'): Promise<string> {
  const response = await fetch(`${base}/boot/ipxe/boot.ipxe?mac=${encodeURIComponent(mac)}&arch=${arch}&platform=${platform}${extra}`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('the netboot default menu with the catalog', () => {
  it('lists, under the catalog groups, what this machine can boot: local files as they are, mirror files marked (download), nothing missing', async () => {
    const menu = await script('52:54:00:c4:00:01');
    expect(lintIpxeScript(menu)).toEqual([]);
    expect(menu).toContain('item --gap -- Linux installers');
    expect(menu).toMatch(/item c\d+ Debian 12 \(bookworm\) \(download\)\n/);
    expect(menu).toMatch(/item c\d+ Memtest86\+ \(BIOS\) 7\.x \(Debian 13_s package\)\n/);
    expect(menu).toContain('&choice=debian:12:x86_64 || goto bw-failed');
    // Missing files (Windows PE, Memtest86+ 6) and UEFI-only entries on a BIOS machine are not offered.
    expect(menu).not.toContain('windows-pe:');
    expect(menu).not.toContain('memtest86plus-bios:6:');
    expect(menu).not.toContain('memtest86plus-efi:');
    expect(menu).toMatch(/item local Boot from the local disk\n/);
  });

  it('boots a choice interactively: the entry\'s kernel and initrd, no answer file, no task', async () => {
    const mac = '52:54:00:c4:00:02';
    const chosen = await script(mac, '&choice=debian:12:x86_64');
    expect(lintIpxeScript(chosen)).toEqual([]);
    expect(chosen).toContain(`kernel ${base}/boot/netboot/debian/12/x86_64/linux initrd=initrd.gz`);
    expect(chosen).toContain(`initrd --name initrd.gz ${base}/boot/netboot/debian/12/x86_64/initrd.gz`);
    expect(chosen).not.toContain('preseed/url');
    expect(chosen).toContain('echo Bootwright: from the boot menu');
    expect(events.filter((event) => event.kind === 'boot.script_served' && event.mac === mac).at(-1)?.detail).toMatchObject({ action: 'install', reason: 'menu_choice', distro: 'debian', version: '12' });
    expect(t.core.area('netboot').tasks.service.list().data).toEqual([]);
  });

  it('honours a choice only where the machine gets that menu and only for what it offered', async () => {
    const profile = await t.core.area('profiles').create({ name: 'Assigned', boot_type: 'chain', chain: { url: 'http://192.0.2.7/own.ipxe' } }, { author: 'test' });
    const mac = '52:54:00:c4:00:03';
    await t.core.area('hosts').create({ mac, profile_id: profile.id });
    expect(await script(mac, '&choice=debian:12:x86_64')).toContain('chain --autofree http://192.0.2.7/own.ipxe');
    // Not offered (files missing; or UEFI-only on BIOS): the plain menu again.
    expect(await script('52:54:00:c4:00:04', '&choice=windows-pe:11:x86_64')).toContain('menu Bootwright boot menu');
    expect(await script('52:54:00:c4:00:04', '&choice=memtest86plus-efi:7:x86_64')).toContain('menu Bootwright boot menu');
    // A key that is not one at all is dropped before anything looks at it.
    expect(await script('52:54:00:c4:00:04', `&choice=${encodeURIComponent('debian:12:x86_64 ${x}')}`)).toContain('menu Bootwright boot menu');
  });

  it('offline, offers only what is here', async () => {
    await t.core.kernel.settings.update({ netboot: { offline: true } });
    const menu = await script('52:54:00:c4:00:05');
    expect(menu).not.toContain('(download)');
    expect(menu).toContain('choice=memtest86plus-bios:7:x86_64');
    expect(menu).not.toContain('choice=debian:');
    await t.core.kernel.settings.update({ netboot: { offline: false } });
  });
});
