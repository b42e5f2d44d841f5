import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_LIMITS } from '../../../src-main/templates/template-engine.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/**
 * A profile script that renders fine for the save check (its sample serial is
 * "SAMPLE") but, for `serial=boom`, runs a nested has_exp over 1500 elements:
 * seconds of one filter call, which LiquidJS's own time limit cannot
 * interrupt. The boot script URL is unauthenticated, so before template work
 * left the main thread anyone could stall the API (and DHCP) with it.
 */
const HOSTILE = [
  '#!ipxe',
  `{% if client.serial == "boom" %}{% assign a = (1..1500) %}{{ a | has_exp: "i", "a | has_exp: 'j', 'j == 0'" }}{% endif %}`,
  'echo fine',
  '',
].join('\n');

const KILLED = `render exceeded ${TEMPLATE_LIMITS.killAfterMs} ms`;

let t: TestCore;
let base: string;
let viewer: { authorization: string };

beforeAll(async () => {
  t = await createTestCore();
  await t.core.kernel.services.start('http');
  base = t.core.url();
  viewer = await bearerHeaders(t.core, 'viewer');
});
afterAll(async () => t.close());

async function api(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path: `/api/v1${path}`, ...(body !== undefined ? { body } : {}) } as never);
  return res as unknown as { status: number; body: { data: Record<string, unknown>; error?: string; message?: string } };
}

describe('a hostile profile script', () => {
  it('is refused at save when it stalls for the sample machine (killed) or allocates too much', async () => {
    const unconditional = HOSTILE.replace('{% if client.serial == "boom" %}', '{% if true %}');
    const res = await api('POST', '/profiles', { name: 'always-hostile', boot_type: 'ipxe_script', script: unconditional });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(KILLED);
    const range = await api('POST', '/profiles', { name: 'range-hostile', boot_type: 'ipxe_script', script: '#!ipxe\n{{ (1..3000000) | has_exp: "i", "i == 0" }}\n' });
    expect(range.status).toBe(400);
    expect(JSON.stringify(range.body)).toContain('memory alloc limit exceeded');
  });

  it('as the netboot default: serial=boom gets a fallback script with the time-limit error, and the API answers meanwhile', async () => {
    const created = await api('POST', '/profiles', { name: 'hostile', boot_type: 'ipxe_script', script: HOSTILE });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const profileId = Number(created.body.data.id);
    await t.core.kernel.settings.update({ netboot: { default_action: 'profile', default_profile_id: profileId, record_unknown_hosts: true, menu_timeout_seconds: 10 } });

    // Warm the status route, so the probes below time the concurrency and not a first call.
    expect((await fetch(`${base}/api/v1/status`, { headers: viewer })).status).toBe(200);
    // The core runs in this process: the event loop's longest stall is the main thread's (the one answering DHCP).
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();

    // Unauthenticated, as a booting machine asks.
    const started = performance.now();
    let hostileDoneAt: number | null = null;
    const hostile = fetch(`${base}/boot/ipxe/boot.ipxe?mac=52:54:00:de:ad:01&arch=x86_64&platform=efi&serial=boom`).then(async (res) => {
      const body = await res.text();
      hostileDoneAt = performance.now();
      return { status: res.status, body };
    });

    // Give the server time to take the request up, then probe the API while the render runs.
    await delay(150);
    const answeredDuringRender: number[] = [];
    for (let probe = 0; probe < 100 && hostileDoneAt === null; probe += 1) {
      const sent = performance.now();
      const res = await fetch(`${base}/api/v1/status`, { headers: viewer });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      if (hostileDoneAt === null) answeredDuringRender.push(performance.now() - sent);
      await delay(20);
    }
    const result = await hostile;
    stalls.disable();
    const hostileMs = (hostileDoneAt ?? performance.now()) - started;
    console.log(
      `hostile boot script answered in ${hostileMs.toFixed(0)} ms; ${answeredDuringRender.length} GET /api/v1/status answered meanwhile, ` +
        `slowest ${Math.max(0, ...answeredDuringRender).toFixed(1)} ms (${answeredDuringRender.map((ms) => ms.toFixed(0)).join(', ')}); ` +
        `longest main-thread stall ${(stalls.max / 1e6).toFixed(0)} ms`,
    );

    expect(result.status).toBe(200);
    expect(result.body).toMatch(/^#!ipxe\n/);
    expect(result.body).toContain(KILLED);
    expect(result.body).toMatch(/exit 1\n$/);
    // The API kept answering while the hostile render ran (before the fix it waited for the whole render).
    expect(answeredDuringRender.length).toBeGreaterThan(0);

    const failed = t.core.kernel.events.all().filter((event) => event.kind === 'boot.script_failed').at(-1);
    expect(failed?.detail).toMatchObject({ profile_id: profileId });
    expect(String(failed?.detail?.error)).toContain(KILLED);

    // Another machine with the same default profile boots normally on the replacement worker.
    const normal = await fetch(`${base}/boot/ipxe/boot.ipxe?mac=52:54:00:de:ad:02&serial=fine`);
    expect(await normal.text()).toBe('#!ipxe\n\necho fine\n');
  });

  it('as a custom entry script that stalls only off the sample address: the built-in default is served instead', async () => {
    // The save check renders for server.ip 192.0.2.1; real clients reach 127.0.0.1 here.
    const entry = HOSTILE.replace('client.serial == "boom"', 'server.ip != "192.0.2.1"');
    const saved = await api('PUT', '/services/ipxe-script', { script: entry });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const res = await fetch(`${base}/boot/ipxe/entry.ipxe`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('chain --autofree ${bw-script} && exit 0 ||');
    const failed = t.core.kernel.events.all().filter((event) => event.kind === 'boot.script_failed').at(-1);
    expect(failed?.detail).toMatchObject({ script: 'entry' });
    expect(String(failed?.detail?.error)).toContain(KILLED);
    await api('PUT', '/services/ipxe-script', { reset: true });
  });
});
