import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../../src-main/diagnostics/index.js';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { SseClient } from '../events/sse-client.js';
import { as, stubAuthenticator } from '../events/stub-auth.js';

/*
 * Diagnostics across a namespace router. The core runs here; its tools run
 * inside the client namespace (the `wrap` seam prefixes `ip netns exec`), so
 * every probe stays inside namespaces this test made:
 *
 *   cli 10.77.0.2 ── 10.77.0.1 rtr 10.77.1.1 ── 10.77.1.2 srv
 */

const skip = skipNetnsTest('diagnostics namespace test', ['ping', 'traceroute', 'tracepath']);

describe.skipIf(skip)('diagnostics through a namespace router', () => {
  let lab: NetLab;
  let cli: Netns;
  const cores: TestCore[] = [];

  beforeAll(async () => {
    lab = await NetLab.create();
    cli = await lab.namespace('cli');
    const rtr = await lab.namespace('rtr');
    const srv = await lab.namespace('srv');
    await lab.link(cli, 'eth0', '10.77.0.2/24', rtr, 'eth0', '10.77.0.1/24');
    await lab.link(rtr, 'eth1', '10.77.1.1/24', srv, 'eth0', '10.77.1.2/24');
    await rtr.must('sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
    await cli.ip('route', 'add', 'default', 'via', '10.77.0.1');
    await srv.ip('route', 'add', 'default', 'via', '10.77.1.1');
  }, 60_000);

  afterAll(async () => {
    for (const core of cores) await core.close();
    await lab?.destroy();
  });

  async function coreInClient(hasTool?: (tool: string) => boolean): Promise<TestCore> {
    const wrap = (command: Command): Command => ({ tool: 'ip', args: ['netns', 'exec', cli.name, command.tool, ...command.args] });
    const core = await createTestCore({ authenticator: stubAuthenticator, diagnostics: { wrap, ...(hasTool ? { hasTool } : {}) } });
    cores.push(core);
    await core.core.start();
    return core;
  }

  async function post(core: TestCore, path: string, body: unknown) {
    const response = await fetch(`${core.core.url()}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...as('operator') }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  }

  it('pings the host behind the router', async () => {
    const core = await coreInClient();
    const result = await post(core, '/network/ping', { target: '10.77.1.2', count: 2, timeout_seconds: 2 });
    expect(result).toMatchObject({ received: 2, loss_percent: 0, exit_code: 0 });
    expect(result.replies).toMatchObject([{ seq: 1, from: '10.77.1.2', ttl: 63 }, { seq: 2, from: '10.77.1.2', ttl: 63 }]);
  }, 30_000);

  it('reports an unreachable address: no replies, 100 % loss, exit code 1', async () => {
    const core = await coreInClient();
    const result = await post(core, '/network/ping', { target: '10.77.0.9', count: 2, timeout_seconds: 1 });
    expect(result).toMatchObject({ received: 0, loss_percent: 100, exit_code: 1, min_ms: null });
  }, 30_000);

  it('traceroute shows the two hops (router, then target)', async () => {
    const core = await coreInClient();
    const result = await post(core, '/network/traceroute', { target: '10.77.1.2', max_hops: 5, timeout_seconds: 1 });
    expect(result).toMatchObject({ tool: 'traceroute', reached: true });
    expect(result.hops).toMatchObject([{ hop: 1, addresses: ['10.77.0.1'] }, { hop: 2, addresses: ['10.77.1.2'] }]);
  }, 30_000);

  it('tracepath (the fallback) streams the same two hops', async () => {
    const core = await coreInClient((tool) => tool !== 'traceroute');
    const client = await SseClient.post(`${core.core.url()}/api/v1/network/traceroute/stream`, { target: '10.77.1.2', max_hops: 5 }, as('operator'));
    let done: Record<string, unknown> | null = null;
    for (let i = 0; i < 20 && done === null; i += 1) {
      const frame = await client.nextEvent();
      if (frame.event === 'done') done = JSON.parse(frame.data ?? 'null') as Record<string, unknown>;
    }
    expect(done).toMatchObject({ tool: 'tracepath', reached: true });
    expect((done?.hops as { addresses: string[] }[]).map((hop) => hop.addresses)).toEqual([['10.77.0.1'], ['10.77.1.2']]);
  }, 30_000);
});
