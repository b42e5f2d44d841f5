import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BmcTarget } from '../../../src-main/power/bmc-client.js';
import { BmcError } from '../../../src-main/power/bmc-error.js';
import { RedfishConnection } from '../../../src-main/power/redfish/redfish-connection.js';
import { findTool } from '../../helpers/netns.js';
import type { TestCore } from '../../helpers/test-core.js';
import { api, eventsOf, powerCore } from './power-harness.js';
import { REDFISH_PASSWORD, REDFISH_USER, selfSignedCert, startRedfishServer, type RedfishServer } from './redfish-server.js';

/*
 * The Redfish client against a small HTTPS Redfish service started by the
 * test (fixtures shaped like an iDRAC 9's responses, a self-signed
 * certificate made with openssl): TLS verification, authentication, power
 * actions, boot source override with If-Match, protocol detection by probe.
 */
const skip = !findTool('openssl') && !process.env.CI;
if (skip) console.warn('Redfish tests skipped: openssl missing (installed by .ci/run); in CI they run');

describe.skipIf(skip)('Redfish', () => {
  let tls: { cert: Buffer; key: Buffer };
  let server: RedfishServer;
  let target: BmcTarget;

  beforeAll(async () => {
    tls = await selfSignedCert();
  });
  beforeEach(async () => {
    await server?.close();
    server = await startRedfishServer(tls);
    target = { protocol: 'redfish', address: '127.0.0.1', port: server.port, username: REDFISH_USER, password: REDFISH_PASSWORD, verifyTls: false, cipherSuite: null, privilege: 'administrator' };
  });
  afterAll(async () => server?.close());

  async function failure(promise: Promise<unknown>): Promise<BmcError> {
    const err = await promise.then(() => null, (error: unknown) => error);
    expect(err).toBeInstanceOf(BmcError);
    return err as BmcError;
  }

  it('connects to a self-signed BMC when verify_tls is false and reads identity and power', async () => {
    const bmc = await RedfishConnection.connect(target, 5_000);
    expect(bmc.description).toBe('Redfish 1.11.0');
    expect(await bmc.identify()).toEqual({ vendor: 'Dell Inc.', model: 'PowerEdge R640', firmware: '2.12.2' });
    expect(await bmc.powerState()).toBe('off');
  });

  it('refuses the self-signed certificate when verify_tls is true, saying how to accept it', async () => {
    const err = await failure(RedfishConnection.connect({ ...target, verifyTls: true }, 5_000));
    expect(err.reason).toBe('tls');
    expect(err.message).toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT.*verify_tls to false/);
  });

  it('reports wrong credentials with the BMC\'s own message', async () => {
    const err = await failure(RedfishConnection.connect({ ...target, password: 'wrong' }, 5_000));
    expect(err.reason).toBe('auth_failed');
    expect(err.message).toMatch(/HTTP 401.*invalid username and\/or password/);
  });

  it('maps power actions to ComputerSystem.Reset types', async () => {
    const bmc = await RedfishConnection.connect(target, 5_000);
    for (const action of ['on', 'off', 'cycle', 'reset', 'soft'] as const) await bmc.power(action);
    const resets = server.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { ResetType: string }).ResetType);
    expect(resets).toEqual(['On', 'ForceOff', 'PowerCycle', 'ForceRestart', 'GracefulShutdown']);
    expect(await bmc.powerState()).toBe('off');
    // A BMC without PowerCycle gets ForceRestart for a cycle; one without GracefulShutdown says so.
    server.allowedResets = ['On', 'ForceOff', 'ForceRestart'];
    const older = await RedfishConnection.connect(target, 5_000);
    await older.power('cycle');
    expect((server.requests.at(-1)!.body as { ResetType: string }).ResetType).toBe('ForceRestart');
    const err = await failure(older.power('soft'));
    expect(err.reason).toBe('unsupported');
  });

  it('sets the boot source override with If-Match (Pxe once, UEFI; Hdd continuous, legacy)', async () => {
    const bmc = await RedfishConnection.connect(target, 5_000);
    await bmc.setBootDevice({ device: 'pxe', persistent: false, efi: true });
    expect(server.boot).toMatchObject({ BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once', BootSourceOverrideMode: 'UEFI' });
    const patch = server.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.ifMatch).toMatch(/^W\/"gen-/);
    await bmc.setBootDevice({ device: 'disk', persistent: true, efi: false });
    expect(server.boot).toMatchObject({ BootSourceOverrideTarget: 'Hdd', BootSourceOverrideEnabled: 'Continuous', BootSourceOverrideMode: 'Legacy' });
    await bmc.setBootDevice({ device: 'bios', persistent: false, efi: true });
    expect(server.boot.BootSourceOverrideTarget).toBe('BiosSetup');
  });

  it('says clearly when the address is not a Redfish service, or nothing listens', async () => {
    server.notRedfish = true;
    expect((await failure(RedfishConnection.connect(target, 5_000))).message).toMatch(/not JSON/);
    await server.close();
    const err = await failure(RedfishConnection.connect(target, 5_000));
    expect(err.reason).toBe('unreachable');
    expect(err.message).toMatch(/connection refused/);
  });

  describe('through the API', () => {
    let t: TestCore;
    beforeEach(async () => {
      t = await powerCore({ power: { bmcTiming: { ipmi: { timeoutMs: 1_000, retries: 0 }, redfishTimeoutMs: 5_000 } } });
    });
    afterEach(async () => t.close());

    it('probes without a protocol: finds Redfish and reads vendor, model and power', async () => {
      const probe = await api<Record<string, unknown>>(t.core, 'POST', '/bmc/probe', { address: '127.0.0.1', port: server.port, username: REDFISH_USER, password: REDFISH_PASSWORD, verify_tls: false });
      expect(probe.status).toBe(200);
      expect(probe.body.data).toMatchObject({ reachable: true, authenticated: true, protocol: 'redfish', vendor: 'Dell Inc.', model: 'PowerEdge R640', power_state: 'off', error: null });
      const strict = await api<Record<string, unknown>>(t.core, 'POST', '/bmc/probe', { address: '127.0.0.1', port: server.port, protocol: 'redfish', username: REDFISH_USER, password: REDFISH_PASSWORD });
      expect(strict.body.data).toMatchObject({ reachable: true, authenticated: false, error_reason: 'tls' });
    });

    it('refreshes, powers on and sets PXE boot through a stored config', async () => {
      const created = await api<{ id: number; port: number }>(t.core, 'POST', '/bmc/configs', {
        name: 'idrac-r640',
        address: '127.0.0.1',
        port: server.port,
        protocol: 'redfish',
        username: REDFISH_USER,
        password: REDFISH_PASSWORD,
        verify_tls: false,
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      expect((await api(t.core, 'POST', `/bmc/${id}/refresh`)).body.data).toMatchObject({ vendor: 'Dell Inc.', model: 'PowerEdge R640', power_state: 'off', last_error: null });
      expect((await api(t.core, 'POST', `/bmc/${id}/power-on`)).body.data).toMatchObject({ action: 'on', power_state: 'on' });
      expect(server.powerState).toBe('On');
      expect((await api(t.core, 'POST', `/bmc/${id}/boot-device`, { device: 'pxe' })).status).toBe(200);
      expect(server.boot).toMatchObject({ BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once', BootSourceOverrideMode: 'UEFI' });
      expect(eventsOf(t.core, 'bmc.power')[0]).toMatchObject({ detail: { action: 'on', result: 'ok', protocol: 'redfish', user: 'local' } });
      expect(eventsOf(t.core, 'bmc.boot_device')[0]).toMatchObject({ detail: { device: 'pxe', result: 'ok' } });
    });
  });
});
