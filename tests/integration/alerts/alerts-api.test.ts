/**
 * The alert centre through a real core (issue 18): a TFTP server that
 * cannot bind its port and a BMC that refuses, each raised with its message
 * in full; dismissing hides one as it is; a condition that clears takes its
 * alert (and dismissal) with it. Loopback only.
 */
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../src-main/alerts/alerts-contract.js';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';
import { freeUdpPort, loopbackNics } from '../tftp/tftp-harness.js';

let t: TestCore;
let holder: dgram.Socket;
let takenPort: number;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator, nicReader: loopbackNics() });
  // Another program holds the TFTP port: the service fails to start.
  holder = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve));
  takenPort = holder.address().port;
  await t.core.area('tftp').settings.update({ port: takenPort });
  await t.core.kernel.services.start('tftp').catch(() => undefined);
});
afterAll(async () => {
  holder.close();
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, role: Role = 'operator') {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json<{ data: Alert[] & Alert; error?: string }>() };
}

const alerts = async (query = '') => (await call('GET', `/alerts${query}`, undefined, 'viewer')).body.data;

describe('the alert centre', () => {
  it('raises a failed service with its error in full, errors first', async () => {
    expect(t.core.kernel.services.get('tftp').state).toBe('failed');
    const list = await alerts();
    const tftp = list.find((alert) => alert.id === 'service.tftp');
    expect(tftp).toMatchObject({ severity: 'error', source: 'services', title: 'TFTP failed', link: '/services/tftp', dismissed: false });
    expect(tftp!.message).toBe(t.core.kernel.services.get('tftp').last_error);
    expect(tftp!.message.length).toBeGreaterThan(20);
    expect(list[0]!.severity).toBe('error');
  });

  it('raises a BMC that refuses, in plain words', async () => {
    const port = await freeUdpPort();
    const bmc = await call('POST', '/bmc/configs', { name: 'rack-a-01', address: '127.0.0.1', port, protocol: 'ipmi', username: 'admin', password: 'secret' });
    expect(bmc.status, bmc.body.error).toBe(201);
    const id = (bmc.body.data as unknown as { id: number }).id;
    expect((await call('POST', `/bmc/${id}/refresh`)).status).toBe(502);
    const alert = (await alerts()).find((candidate) => candidate.id === `bmc.${id}`);
    expect(alert).toMatchObject({ severity: 'warning', source: 'power', title: 'BMC "rack-a-01" (127.0.0.1) does not answer as it should', link: '/bmc' });
    expect(alert!.message).toMatch(/connection refused \(ECONNREFUSED\).*check the port/);
    expect(alert!.message).not.toContain('secret');
  });

  it('dismisses an alert as it is; viewers cannot; unknown ids are 404', async () => {
    expect((await call('POST', '/alerts/service.tftp/dismiss', undefined, 'viewer')).status).toBe(403);
    expect((await call('POST', '/alerts/service.nosuch/dismiss')).status).toBe(404);
    expect((await call('POST', '/alerts/bad%20id/dismiss')).status).toBe(400);
    const dismissed = await call('POST', '/alerts/service.tftp/dismiss');
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data).toMatchObject({ id: 'service.tftp', dismissed: true });
    expect((await alerts()).map((alert) => alert.id)).not.toContain('service.tftp');
    expect((await alerts('?include_dismissed=true')).find((alert) => alert.id === 'service.tftp')).toMatchObject({ dismissed: true });
  });

  it('a condition that clears takes its alert away, and coming back is news again', async () => {
    holder.close();
    holder = dgram.createSocket('udp4');
    await t.core.kernel.services.start('tftp');
    expect((await alerts('?include_dismissed=true')).map((alert) => alert.id)).not.toContain('service.tftp');
    await t.core.kernel.services.stop('tftp');
    await new Promise<void>((resolve) => holder.bind(takenPort, '127.0.0.1', resolve));
    await t.core.kernel.services.start('tftp').catch(() => undefined);
    expect((await alerts()).find((alert) => alert.id === 'service.tftp')).toMatchObject({ dismissed: false });
  });
});
