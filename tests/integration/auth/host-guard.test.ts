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

  it("accepts the server's own DNS names: the local domain, <server name>.<local domain>, the bare name and {server_ip} records", async () => {
    t = await createTestCore();
    const core = t.core;
    const get = (host: string) => core.http.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host } });
    for (const host of ['bootwright.local', 'bootwright.local:8080', 'BOOTWRIGHT.bootwright.local:8080', 'bootwright:8080']) expect((await get(host)).statusCode, host).toBe(200);
    expect((await get('other.bootwright.local')).statusCode).toBe(403);

    // A renamed server and domain, and a record an operator pointed at the server, are ours at once.
    await core.kernel.settings.update({ general: { server_name: 'pxe1' } });
    await core.area('dns').updateSettings({ local_domain: 'lab.test' });
    await core.area('dns').records.create({ name: 'deploy', type: 'A', value: '{server_ip}' });
    await core.area('dns').records.create({ name: 'elsewhere', type: 'A', value: '10.9.9.9' });
    for (const host of ['lab.test', 'pxe1.lab.test:8080', 'pxe1', 'deploy.lab.test']) expect((await get(host)).statusCode, host).toBe(200);
    expect((await get('elsewhere.lab.test')).statusCode).toBe(403);
  });

  it('accepts the addresses of every interface the network area knows, a link-down one included, and the address overrides', async () => {
    t = await createTestCore({
      nicReader: () => [
        {
          name: 'eth9',
          mac: '02:00:00:00:00:09',
          mtu: 1500,
          up: false,
          link: 'down',
          internal: false,
          addresses: [{ address: '10.99.0.1', family: 'ipv4', prefix: 24, cidr: '10.99.0.1/24', subnet: '10.99.0.0/24' }],
        },
      ],
    });
    const core = t.core;
    await core.kernel.settings.update({ interfaces: { server_addresses: [{ subnet: '10.98.0.0/24', address: '10.98.0.7' }] } });
    const get = (host: string) => core.http.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host } });
    expect((await get('10.99.0.1:8080')).statusCode).toBe(200);
    expect((await get('10.98.0.7')).statusCode).toBe(200);
    expect((await get('10.99.0.2:8080')).statusCode).toBe(403);
  });

  it('passes real socket requests to the listening address and IPC requests', async () => {
    t = await createTestCore();
    await t.core.start();
    expect((await fetch(`${t.core.url()}/api/v1/openapi.json`)).status).toBe(200);
    const ipc = await t.core.ipc.invoke({ method: 'GET', path: '/api/v1/services' });
    expect(ipc.status).toBe(200);
  });
});
