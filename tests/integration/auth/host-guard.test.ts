import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

describe('DNS-rebinding guard (Host header)', () => {
  let t: TestCore | undefined;
  afterEach(async () => t?.close());

  it('refuses foreign Host names on every route, public ones included', async () => {
    t = await createTestCore();
    const requests = [
      { method: 'GET' as const, url: '/api/v1/openapi.json' },
      { method: 'GET' as const, url: '/api/v1/auth/session' },
      { method: 'POST' as const, url: '/api/v1/auth/login', payload: { username: 'admin', password: 'whatever-password' } },
      { method: 'GET' as const, url: '/api/v1/services' },
      { method: 'GET' as const, url: '/no-such-page' },
    ];
    for (const request of requests) {
      for (const host of ['evil.example', 'evil.example:8080', '10.255.255.254:8080']) {
        const response = await t.core.http.inject({ ...request, headers: { host } });
        expect(response.statusCode, `${request.url} ${host}`).toBe(403);
        expect(response.json()).toMatchObject({ success: false, code: 'HOST_REJECTED' });
      }
    }
  });

  it('accepts loopback, the machine name and the interface addresses', async () => {
    t = await createTestCore();
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []).map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
    const hosts = ['localhost', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080', os.hostname(), `${os.hostname().split('.')[0]}.local:80`, ...addresses.map((a) => `${a}:8080`)];
    for (const host of hosts) {
      const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('accepts extra names given to the core', async () => {
    t = await createTestCore({ allowedHosts: ['pxe.example.net'] });
    const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host: 'pxe.example.net:8080' } });
    expect(response.statusCode).toBe(200);
  });

  // The auth area adds general.allowed_hosts as a source of the guard when it is created (auth/index.ts).
  it('accepts the names of general.allowed_hosts, IPv6 literals in brackets', async () => {
    t = await createTestCore();
    const core = t.core;
    await core.kernel.settings.update({ general: { allowed_hosts: ['pxe.example.org', 'fd00::53'] } });
    const get = (host: string) => core.http.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host } });
    expect((await get('pxe.example.org:8080')).statusCode).toBe(200);
    expect((await get('[fd00::53]:8080')).statusCode).toBe(200);
    expect((await get('other.example.org')).statusCode).toBe(403);
  });

  it('passes real socket requests to the listening address and IPC requests', async () => {
    t = await createTestCore();
    await t.core.start();
    expect((await fetch(`${t.core.url()}/api/v1/openapi.json`)).status).toBe(200);
    const ipc = await t.core.ipc.invoke({ method: 'GET', path: '/api/v1/services' });
    expect(ipc.status).toBe(200);
  });
});
