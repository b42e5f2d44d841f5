import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { UdpEchoService } from '../../helpers/udp-echo-service.js';

const opened: TestCore[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function coreWith(...services: UdpEchoService[]): Promise<TestCore> {
  const t = await createTestCore();
  opened.push(t);
  for (const service of services) t.core.kernel.services.register(service);
  await t.core.start();
  return t;
}

type Json = { success: boolean; data: Record<string, unknown> & Record<string, unknown>[]; code?: string; error?: string };
async function call(t: TestCore, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const res = await t.core.ipc.invoke({ method, path, body });
  return { status: res.status, body: res.body as Json };
}

function echo(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      client.close();
      reject(new Error('no echo'));
    }, 2000);
    client.on('message', (msg) => {
      clearTimeout(timer);
      client.close();
      resolve(msg.toString());
    });
    client.send('ping', port, '127.0.0.1');
  });
}

describe('service lifecycle', () => {
  it('lists services with state, auto_start, listen addresses and uptime', async () => {
    const t = await coreWith(new UdpEchoService('echo', 0));
    const res = await call(t, 'GET', '/api/v1/services');
    expect(res.status).toBe(200);
    const rows = res.body.data as unknown as { name: string }[];
    expect(rows.map((s) => s.name)).toEqual(expect.arrayContaining(['http', 'dns', 'dhcp', 'tftp', 'echo']));
    expect(rows.find((s) => s.name === 'http')).toMatchObject({ state: 'running', protected: true, last_error: null });
    expect(rows.find((s) => s.name === 'echo')).toMatchObject({ state: 'stopped', auto_start: false, listen: [] });
  });

  it('starts and stops a real UDP server; both are idempotent', async () => {
    const service = new UdpEchoService('echo', 0);
    const t = await coreWith(service);
    const started = await call(t, 'POST', '/api/v1/services/echo/start');
    expect(started.body.data).toMatchObject({ state: 'running' });
    const port = Number(String((started.body.data.listen as unknown as string[])[0]).split(':').pop());
    expect(await echo(port)).toBe('ping');
    expect((await call(t, 'POST', '/api/v1/services/echo/start')).body.data).toMatchObject({ state: 'running' });
    expect((await call(t, 'POST', '/api/v1/services/echo/stop')).body.data).toMatchObject({ state: 'stopped', listen: [] });
    expect((await call(t, 'POST', '/api/v1/services/echo/stop')).status).toBe(200);
    await expect(echo(port)).rejects.toThrow('no echo');
    const kinds = t.core.kernel.events.all().map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['service.started', 'service.stopped']));
  });

  it('goes to failed with the OS error when its port is taken, and recovers on restart', async () => {
    const blocker = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => blocker.bind(0, '127.0.0.1', resolve));
    const port = blocker.address().port;
    const service = new UdpEchoService('echo', port);
    const t = await coreWith(service);
    const failed = await call(t, 'POST', '/api/v1/services/echo/start');
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ state: 'failed', last_error: `listen udp 127.0.0.1:${port}: address already in use (another program, e.g. dnsmasq or systemd-resolved, holds the port)` });
    expect(t.core.kernel.events.all().some((e) => e.kind === 'service.failed' && e.level === 'error')).toBe(true);
    await new Promise<void>((resolve) => blocker.close(resolve));
    const restarted = await call(t, 'POST', '/api/v1/services/echo/restart');
    expect(restarted.body.data).toMatchObject({ state: 'running', last_error: null });
  });

  it('refuses to stop or restart the HTTP service that serves the API (409) and 404s unknown names', async () => {
    const t = await coreWith();
    const stop = await call(t, 'POST', '/api/v1/services/http/stop');
    expect(stop.status).toBe(409);
    expect(stop.body).toMatchObject({ success: false, code: 'INVALID_STATE' });
    expect((await call(t, 'POST', '/api/v1/services/http/restart')).status).toBe(409);
    const unknown = await call(t, 'POST', '/api/v1/services/gopher/start');
    expect(unknown.status).toBe(404);
    expect((await call(t, 'POST', '/api/v1/services/echo/explode')).status).toBe(400);
  });

  it('persists the auto-start flag and honours it at the next start', async () => {
    const t = await createTestCore();
    t.core.kernel.services.register(new UdpEchoService('echo', 0));
    await t.core.start();
    const set = await call(t, 'PUT', '/api/v1/services/echo/auto-start', { auto_start: true });
    expect(set.body.data).toMatchObject({ auto_start: true, state: 'stopped' });
    expect((await call(t, 'PUT', '/api/v1/services/echo/auto-start', { auto_start: 'yes' })).status).toBe(400);
    await t.core.stop();

    const again = await createTestCore({ dataDir: t.dataDir, autoStartServices: ['echo'] });
    opened.push(again, t);
    again.core.kernel.services.register(new UdpEchoService('echo', 0));
    await again.core.start();
    expect(again.core.kernel.services.get('echo')).toMatchObject({ auto_start: true, state: 'running' });
  });

  it('runs batch actions with one result per name, never failing the whole batch', async () => {
    const t = await coreWith(new UdpEchoService('echo', 0), new UdpEchoService('echo2', 0));
    const res = await call(t, 'POST', '/api/v1/services/batch/start', { names: ['echo', 'echo2', 'nope', 'http'] });
    expect(res.status).toBe(200);
    const results = res.body.data as unknown as { name: string; ok: boolean; code?: string; service?: { state: string } }[];
    expect(results.map((r) => [r.name, r.ok, r.code ?? r.service?.state])).toEqual([
      ['echo', true, 'running'],
      ['echo2', true, 'running'],
      ['nope', false, 'NOT_FOUND'],
      ['http', true, 'running'],
    ]);
    const stop = await call(t, 'POST', '/api/v1/services/batch/stop', { names: ['echo', 'http'] });
    const stopResults = stop.body.data as unknown as { name: string; ok: boolean; code?: string }[];
    expect(stopResults.map((r) => [r.name, r.ok, r.code ?? null])).toEqual([['echo', true, null], ['http', false, 'INVALID_STATE']]);
    expect((await call(t, 'POST', '/api/v1/services/batch/reboot', { names: ['echo'] })).status).toBe(400);
    expect((await call(t, 'POST', '/api/v1/services/batch/start', { names: [] })).status).toBe(400);
  });
});
