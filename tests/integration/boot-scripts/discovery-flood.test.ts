import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countConfigWrites } from '../../helpers/store-writes.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/**
 * Unauthenticated boot script requests must not grow the store without
 * bound, nor rewrite it once per request: a flood of invented MACs records
 * at most the discovery rate limit's worth of hosts, and a flood of boots of
 * one known machine causes a bounded number of configuration writes. Every
 * request still gets its script.
 */

let t: TestCore;
let now = Date.parse('2030-06-01T12:00:00.000Z');

beforeAll(async () => {
  // The hosts' clock stands still unless the test moves it, so the token buckets do not refill mid-test.
  t = await createTestCore({ hostsClock: () => new Date(now) });
  await t.core.kernel.services.start('http');
  await t.core.kernel.settings.update({ netboot: { default_action: 'menu', default_profile_id: null, record_unknown_hosts: true, menu_timeout_seconds: 10 } });
});
afterAll(async () => t.close());

/** GET over a real socket from `source` (a loopback address) to the core's HTTP port. */
function bootRequest(query: string, source: string): Promise<{ status: number; text: string }> {
  const url = new URL(`${t.core.url()}/boot/ipxe/boot.ipxe?${query}`);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, localAddress: source, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

function mac(i: number): string {
  return `02:00:5e:${[i >> 16, (i >> 8) & 0xff, i & 0xff].map((b) => b.toString(16).padStart(2, '0')).join(':')}`;
}


/** `count` requests, `batch` at a time. */
async function flood(count: number, batch: number, one: (i: number) => Promise<{ status: number; text: string }>) {
  const answers: { status: number; text: string }[] = [];
  for (let start = 0; start < count; start += batch) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, k) => one(start + k)))));
  }
  return answers;
}

describe('a flood of boot requests', () => {
  it('of 200 unknown MACs from 20 addresses records at most the global rate (30), serves all 200 and warns once', async () => {
    const before = t.core.kernel.events.all().at(-1)?.id ?? 0;
    const answers = await flood(200, 20, (i) => bootRequest(`mac=${mac(i)}&arch=x86_64&platform=efi`, `127.0.0.${10 + (i % 20)}`));
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
    expect(answers.every((answer) => answer.text.startsWith('#!ipxe') && answer.text.includes('menu Bootwright boot menu'))).toBe(true);

    const discovered = t.core.area('hosts').all().filter((host) => host.discovered);
    expect(discovered).toHaveLength(30);
    const events = t.core.kernel.events.since(before);
    expect(events.filter((event) => event.kind === 'host.discovered')).toHaveLength(30);
    expect(events.filter((event) => event.kind === 'boot.script_served')).toHaveLength(200);
    const limited = events.filter((event) => event.kind === 'host.discovery_limited');
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({ level: 'warn', detail: { reason: 'rate_global', refused: 1 } });
    // The unrecorded machines still got the netboot default (no host needed to boot).
    expect(t.core.area('hosts').findByMac(mac(199))).toBeUndefined();
  });

  it('of 100 boots of one known MAC writes the store a bounded number of times; a changed address is recorded at once', async () => {
    now += 120_000;
    const known = await t.core.area('hosts').create({ mac: '52:54:00:f1:00:01', hostname: 'flooded' });
    const writes = await countConfigWrites(t.core.kernel.store, () => flood(100, 10, () => bootRequest(`mac=${known.mac}&arch=x86_64&platform=efi`, '127.0.0.5')));
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(2);
    expect(t.core.area('hosts').get(known.id)).toMatchObject({ last_seen_ip: '127.0.0.5', arch: 'x86_64', platform: 'efi', last_boot_at: new Date(now).toISOString() });

    const moved = await countConfigWrites(t.core.kernel.store, () => bootRequest(`mac=${known.mac}&arch=x86_64&platform=efi`, '127.0.0.6'));
    expect(moved).toBe(1);
    expect(t.core.area('hosts').get(known.id)).toMatchObject({ last_seen_ip: '127.0.0.6' });
  });
});
