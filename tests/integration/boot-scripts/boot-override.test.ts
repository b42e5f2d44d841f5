import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootOverrideInput } from '../../../src-main/boot-scripts/boot-override.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

let t: TestCore;
const OVERRIDDEN = '52:54:00:d0:00:01';
const seen: BootOverrideInput[] = [];
let servedCalls = 0;
let failing = false;

beforeAll(async () => {
  t = await createTestCore();
  await t.core.kernel.services.start('http');
  await t.core.kernel.settings.update({ netboot: { default_action: 'menu', default_profile_id: null, record_unknown_hosts: true, menu_timeout_seconds: 10 } });
  t.core.area('boot-scripts').addBootOverride(async (input) => {
    seen.push(input);
    if (input.mac !== OVERRIDDEN) return null;
    return {
      action: 'install',
      reason: 'netboot_task',
      reason_text: 'install task 1: Test OS',
      script: '#!ipxe\necho overridden\n',
      error: failing ? 'the installer could not be built' : null,
      detail: { task_id: 1 },
      served: async () => {
        servedCalls += 1;
      },
    };
  });
});
afterAll(async () => t.close());

async function hostScript(mac: string): Promise<string> {
  const response = await fetch(`${t.core.url()}/boot/ipxe/boot.ipxe?mac=${mac}&arch=x86_64&platform=efi`);
  return response.text();
}

describe('boot overrides', () => {
  it('decide before the normal decision for the machines they answer for, with its events; others are unaffected', async () => {
    const before = t.core.kernel.events.all().at(-1)?.id ?? 0;
    expect(await hostScript(OVERRIDDEN)).toBe('#!ipxe\necho overridden\n');
    expect(servedCalls).toBe(1);
    expect(seen.at(-1)).toMatchObject({ mac: OVERRIDDEN, client: { ip: '127.0.0.1', platform: 'efi' }, server: { boot_url: `${t.core.url()}/boot` } });
    // The boot was recorded first: the override sees the (discovered) host.
    expect(seen.at(-1)?.host?.mac).toBe(OVERRIDDEN);
    const served = t.core.kernel.events.since(before).filter((event) => event.kind === 'boot.script_served');
    expect(served).toEqual([expect.objectContaining({ mac: OVERRIDDEN, detail: expect.objectContaining({ action: 'install', reason: 'netboot_task', task_id: 1 }) })]);
    expect(await hostScript('52:54:00:d0:00:02')).toContain('menu Bootwright boot menu');
  });

  it('show in the preview without their served step', async () => {
    const host = t.core.area('hosts').findByMac(OVERRIDDEN);
    expect(host).toBeDefined();
    const preview = await t.core.area('boot-scripts').preview(host?.id ?? 0);
    expect(preview).toMatchObject({ action: 'install', reason: 'netboot_task', reason_text: 'install task 1: Test OS', script: '#!ipxe\necho overridden\n', profile: null, render_error: null });
    expect(servedCalls).toBe(1);
  });

  it('come after the access lists, and a failed one is reported as boot.script_failed without its served step', async () => {
    failing = true;
    const before = t.core.kernel.events.all().at(-1)?.id ?? 0;
    expect(await hostScript(OVERRIDDEN)).toBe('#!ipxe\necho overridden\n');
    expect(servedCalls).toBe(1);
    expect(t.core.kernel.events.since(before).filter((event) => event.kind === 'boot.script_failed')).toEqual([
      expect.objectContaining({ mac: OVERRIDDEN, detail: expect.objectContaining({ error: 'the installer could not be built' }) }),
    ]);
    failing = false;
    await t.core.area('dhcp').access.add('blacklist', { mac: OVERRIDDEN });
    const calls = seen.length;
    expect(await hostScript(OVERRIDDEN)).toContain('access denied');
    expect(seen.length).toBe(calls);
  });
});
