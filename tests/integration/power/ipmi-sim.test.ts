import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BmcTarget } from '../../../src-main/power/bmc-client.js';
import { BmcError } from '../../../src-main/power/bmc-error.js';
import { connectIpmi, IpmiConnection, presencePing } from '../../../src-main/power/ipmi/ipmi-connection.js';
import { Lan15Session } from '../../../src-main/power/ipmi/lan15-session.js';
import { UdpExchange } from '../../../src-main/power/ipmi/udp-exchange.js';
import { findTool, run } from '../../helpers/netns.js';
import { freeUdpPort, skipIpmiTests, startIpmiSim, type IpmiSim } from './ipmi-sim.js';
import { api, powerCore } from './power-harness.js';

/*
 * Our IPMI client against a real BMC implementation, OpenIPMI's ipmi_sim,
 * on loopback; ipmitool (the reference client) against the same simulator
 * cross-checks that the two agree on state, boot flags and identity.
 */
const skip = skipIpmiTests('IPMI simulator tests');
const TIMING = { timeoutMs: 3_000, retries: 1 };

describe.skipIf(skip)('IPMI v2.0 client against ipmi_sim', () => {
  let sim: IpmiSim;
  let target: BmcTarget;

  beforeAll(async () => {
    sim = await startIpmiSim();
    target = {
      protocol: 'ipmi',
      address: '127.0.0.1',
      port: sim.port,
      username: 'admin',
      password: 'secretpw',
      verifyTls: true,
      cipherSuite: null,
      privilege: 'administrator',
    };
  }, 60_000);
  afterAll(async () => sim?.stop());

  async function withBmc<T>(overrides: Partial<BmcTarget>, work: (connection: IpmiConnection) => Promise<T>): Promise<T> {
    const connection = await connectIpmi({ ...target, ...overrides }, TIMING);
    try {
      return await work(connection);
    } finally {
      await connection.close();
    }
  }

  async function ipmitool(...args: string[]): Promise<string> {
    const result = await run(findTool('ipmitool')!, ['-I', 'lanplus', '-H', '127.0.0.1', '-p', String(sim.port), '-U', 'admin', '-P', 'secretpw', '-C', '3', ...args], { timeoutMs: 20_000 });
    if (result.code !== 0) throw new Error(`ipmitool ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  }

  async function failure(promise: Promise<unknown>): Promise<BmcError> {
    const err = await promise.then(
      () => null,
      (error: unknown) => error,
    );
    expect(err).toBeInstanceOf(BmcError);
    return err as BmcError;
  }

  it('answers the RMCP presence ping as an IPMI-capable system', async () => {
    expect(await presencePing('127.0.0.1', sim.port, TIMING)).toMatchObject({ iana: 4542, ipmiSupported: true });
  });

  it('logs in (suite 17 refused, falls back to 3), identifies the BMC and reads the power state', async () => {
    await withBmc({}, async (bmc) => {
      expect(bmc.description).toBe('IPMI v2.0 (RMCP+), cipher suite 3');
      expect(await bmc.identify()).toEqual({ vendor: 'Intel', model: 'product 0x0b0a', firmware: '1.42 (IPMI 2.0)' });
      expect(await bmc.powerState()).toBe('off');
    });
  });

  it('agrees with ipmitool on identity', async () => {
    const info = await ipmitool('mc', 'info');
    expect(info).toMatch(/Manufacturer ID\s*:\s*343\b/);
    expect(info).toMatch(/Product ID\s*:\s*2826 \(0x0b0a\)/);
    expect(info).toMatch(/Firmware Revision\s*:\s*1\.42/);
  });

  it('powers on and off; ipmitool sees our changes and we see its', async () => {
    await withBmc({}, async (bmc) => {
      await bmc.power('on');
      expect(await sim.value('power')).toBe('1');
      expect(await bmc.powerState()).toBe('on');
    });
    expect(await ipmitool('chassis', 'power', 'status')).toMatch(/Chassis Power is on/);
    await ipmitool('chassis', 'power', 'off');
    await withBmc({}, async (bmc) => expect(await bmc.powerState()).toBe('off'));
  });

  it('power-cycles (off, then on again), resets and asks for a soft shutdown', async () => {
    await withBmc({}, async (bmc) => {
      await bmc.power('on');
      await bmc.power('cycle');
    });
    // ipmi_sim powers down at once and up again a second later.
    await sim.waitFor('power', '1');
    const log = await sim.log();
    expect(log.slice(-2)).toEqual(['power 0', 'power 1']);
    await withBmc({}, async (bmc) => {
      await bmc.power('reset');
      await bmc.power('soft');
    });
    expect((await sim.log()).slice(-2)).toEqual(['reset 1', 'shutdown 1']);
    await withBmc({}, async (bmc) => expect(await bmc.powerState()).toBe('off'));
  });

  it('sets the boot device; the BMC reads the same flags as from ipmitool', async () => {
    for (const [device, expected] of [
      ['pxe', 'boot pxe'],
      ['disk', 'boot default'],
      ['cdrom', 'boot cdrom'],
      ['bios', 'boot bios'],
    ] as const) {
      await withBmc({}, (bmc) => bmc.setBootDevice({ device, persistent: false, efi: true }));
      expect((await sim.log()).at(-1)).toBe(expected);
    }
    await ipmitool('chassis', 'bootdev', 'pxe');
    const viaIpmitool = (await sim.log()).at(-1);
    await withBmc({}, (bmc) => bmc.setBootDevice({ device: 'pxe', persistent: true, efi: false }));
    expect((await sim.log()).at(-1)).toBe(viaIpmitool);
  });

  it('uses cipher suite 3 when asked and reports suite 17 as unsupported by this simulator', async () => {
    await withBmc({ cipherSuite: 3 }, async (bmc) => expect(bmc.cipherSuite).toBe(3));
    // OpenIPMI 2.0.33's ipmi_sim has no RAKP-HMAC-SHA256: it answers "invalid authentication algorithm".
    const err = await failure(connectIpmi({ ...target, cipherSuite: 17 }, TIMING));
    expect(err.reason).toBe('unsupported_cipher_suite');
    expect(err.message).toMatch(/17 \(invalid authentication algorithm \(0x04\)\)/);
  });

  it('refuses a wrong password and an unknown user with clear errors', async () => {
    const wrong = await failure(connectIpmi({ ...target, password: 'not-it' }, TIMING));
    expect(wrong.reason).toBe('auth_failed');
    expect(wrong.message).toMatch(/wrong password/);
    const unknown = await failure(connectIpmi({ ...target, username: 'mallory' }, TIMING));
    expect(unknown.reason).toBe('auth_failed');
    expect(unknown.message).toMatch(/unknown user name/);
  });

  it('lets an operator-level user control power in an operator session', async () => {
    await withBmc({ username: 'operator', password: 'oppass12', privilege: 'operator' }, async (bmc) => {
      await bmc.power('on');
      expect(await bmc.powerState()).toBe('on');
      await bmc.power('off');
    });
  });

  it('speaks IPMI v1.5 with MD5 authentication too', async () => {
    const exchange = await UdpExchange.open('127.0.0.1', sim.port);
    const session = await Lan15Session.open(exchange, 'sim', { username: Buffer.from('admin'), password: Buffer.from('secretpw'), privilege: 4 }, 0x04, TIMING);
    const bmc = new IpmiConnection(session);
    try {
      expect(bmc.description).toBe('IPMI v1.5, MD5 authentication');
      await bmc.power('on');
      expect(await bmc.powerState()).toBe('on');
      await bmc.power('off');
    } finally {
      await bmc.close();
    }
    const other = await UdpExchange.open('127.0.0.1', sim.port);
    const err = await failure(Lan15Session.open(other, 'sim', { username: Buffer.from('admin'), password: Buffer.from('wrong'), privilege: 4 }, 0x04, { timeoutMs: 600, retries: 1 }));
    other.close();
    expect(err.reason).toBe('auth_failed');
  });
  describe('through the API', () => {
    let t: Awaited<ReturnType<typeof powerCore>>;
    beforeAll(async () => {
      t = await powerCore({ power: { bmcTiming: { ipmi: TIMING, redfishTimeoutMs: 2_000 } } });
    });
    afterAll(async () => t?.close());

    it('probes without a protocol (finds IPMI), and reports a wrong password precisely', async () => {
      const probe = await api<Record<string, unknown>>(t.core, 'POST', '/bmc/probe', { address: '127.0.0.1', port: sim.port, username: 'admin', password: 'secretpw' });
      expect(probe.body.data).toMatchObject({
        reachable: true,
        authenticated: true,
        protocol: 'ipmi',
        session: 'IPMI v2.0 (RMCP+), cipher suite 3',
        cipher_suite: 3,
        vendor: 'Intel',
        model: 'product 0x0b0a',
        error: null,
      });
      const wrong = await api<Record<string, unknown>>(t.core, 'POST', '/bmc/probe', { address: '127.0.0.1', port: sim.port, protocol: 'ipmi', username: 'admin', password: 'nope' });
      expect(wrong.body.data).toMatchObject({ reachable: true, authenticated: false, error_reason: 'auth_failed' });
      const suite = await api<Record<string, unknown>>(t.core, 'POST', '/bmc/probe', { address: '127.0.0.1', port: sim.port, protocol: 'ipmi', username: 'admin', password: 'secretpw', cipher_suite: 17 });
      expect(suite.body.data).toMatchObject({ reachable: true, authenticated: false, error_reason: 'unsupported_cipher_suite' });
      const nobody = await api<Record<string, unknown>>(t.core, 'POST', '/bmc/probe', { address: '127.0.0.1', port: await freeUdpPort(), protocol: 'ipmi', username: 'admin', password: 'x' });
      expect(nobody.body.data).toMatchObject({ reachable: false, authenticated: false, error_reason: 'unreachable' });
    });

    it('refreshes, powers on, reads status, sets PXE and runs a batch through stored configs', async () => {
      const host = await t.core.area('hosts').create({ mac: '52:54:00:fa:00:01' });
      const created = await api<{ id: number }>(t.core, 'POST', '/bmc/configs', { name: 'sim', address: '127.0.0.1', port: sim.port, username: 'admin', password: 'secretpw', cipher_suite: 3, host_id: host.id });
      const id = created.body.data.id;
      expect((await api(t.core, 'POST', `/bmc/${id}/refresh`)).body.data).toMatchObject({ vendor: 'Intel', model: 'product 0x0b0a', last_error: null });
      expect((await api(t.core, 'POST', `/bmc/${id}/power-on`)).body.data).toMatchObject({ power_state: 'on' });
      expect(await sim.value('power')).toBe('1');
      expect((await api(t.core, 'GET', `/bmc/${id}/status`)).body.data).toMatchObject({ power_state: 'on' });
      expect((await api(t.core, 'POST', `/bmc/${id}/boot-device`, { device: 'pxe' })).status).toBe(200);
      expect((await sim.log()).at(-1)).toBe('boot pxe');
      expect((await api(t.core, 'POST', `/hosts/${host.id}/power`, { action: 'off' })).body.data).toMatchObject({ power_state: 'off' });
      expect(await sim.value('power')).toBe('0');
      const wrong = await api<{ id: number }>(t.core, 'POST', '/bmc/configs', { name: 'sim-wrong', address: '127.0.0.1', port: sim.port, username: 'admin', password: 'bad' });
      const batch = await api<{ results: { id: number; ok: boolean; power_state: string | null; reason: string | null }[] }>(t.core, 'POST', '/bmc/batch/status', { ids: [id, wrong.body.data.id] });
      expect(batch.body.data.results).toMatchObject([
        { id, ok: true, power_state: 'off' },
        { id: wrong.body.data.id, ok: false, reason: 'auth_failed' },
      ]);
    });
  });
});

describe.skipIf(skip)('IPMI client without a BMC', () => {
  const base: BmcTarget = { protocol: 'ipmi', address: '127.0.0.1', port: 1, username: 'admin', password: 'x', verifyTls: true, cipherSuite: null, privilege: 'administrator' };

  it('says "connection refused" when nothing listens on the port', async () => {
    const port = await freeUdpPort();
    const err = await connectIpmi({ ...base, port }, TIMING).catch((error: unknown) => error as BmcError);
    expect(err).toBeInstanceOf(BmcError);
    expect((err as BmcError).reason).toBe('unreachable');
    expect((err as BmcError).message).toMatch(/connection refused/);
  });

  it('times out with a clear error when the address swallows every packet', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    let received = 0;
    silent.on('message', () => (received += 1));
    try {
      const err = await connectIpmi({ ...base, port: silent.address().port }, { timeoutMs: 600, retries: 2 }).catch((error: unknown) => error as BmcError);
      expect((err as BmcError).reason).toBe('timeout');
      expect((err as BmcError).message).toMatch(/no answer within 600 ms \(3 attempts\)/);
      expect(received).toBe(3);
    } finally {
      silent.close();
    }
  });
});
