import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, describe, expect, it } from 'vitest';
import type { NameSource } from '../../../src-main/dns/name-source.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { encodeQuery, freeDnsPort, query, rcodeOf, startDnsCore, SUBNET_A, SUBNET_B, twoSubnetNics, type DnsCore } from './dns-harness.js';

const D = 'bootwright.local';
const cores: TestCore[] = [];
afterAll(async () => {
  // Newest first: a core reopened on another's data directory must stop before that directory goes.
  for (const core of cores.splice(0).reverse()) await core.close();
});

async function started(options: Parameters<typeof startDnsCore>[0] = {}): Promise<DnsCore> {
  const t = await startDnsCore(options);
  cores.push(t);
  return t;
}

/** A name source the test controls. */
function fakeSource(initial: { hostname: string; ipv4: string }[]) {
  let entries = initial;
  const listeners = new Set<() => void>();
  const source: NameSource = {
    name: 'test',
    entries: () => entries,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    source,
    set(next: { hostname: string; ipv4: string }[]) {
      entries = next;
      for (const listener of listeners) listener();
    },
  };
}

describe('subnet awareness', () => {
  it('answers the server address on each client\'s subnet, and subnet-specific records to their subnet only', async () => {
    const t = await started({ serverName: 'pxe' });
    const { records } = t.core.area('dns');
    await records.create({ name: 'boot', type: 'A', value: '10.0.0.1' });
    await records.create({ name: 'boot', type: 'A', value: '10.1.0.1', subnet: SUBNET_A.subnet });
    await records.create({ name: 'bonly', type: 'A', value: '10.2.0.1', subnet: SUBNET_B.subnet });
    await t.core.area('dns').sync();
    const fromA = { port: t.port, server: SUBNET_A.server, from: SUBNET_A.client };
    const fromB = { port: t.port, server: SUBNET_B.server, from: SUBNET_B.client };

    expect((await query(`pxe.${D}`, 'A', fromA)).answers).toMatchObject([{ data: SUBNET_A.server }]);
    expect((await query(`pxe.${D}`, 'A', fromB)).answers).toMatchObject([{ data: SUBNET_B.server }]);
    expect((await query(D, 'A', { ...fromB, tcp: true })).answers).toMatchObject([{ data: SUBNET_B.server }]);
    // The client's subnet decides, not the address it sent the query to.
    expect((await query(`pxe.${D}`, 'A', { ...fromB, server: SUBNET_A.server })).answers).toMatchObject([{ data: SUBNET_B.server }]);

    expect((await query(`boot.${D}`, 'A', fromA)).answers).toMatchObject([{ data: '10.1.0.1' }]);
    expect((await query(`boot.${D}`, 'A', fromB)).answers).toMatchObject([{ data: '10.0.0.1' }]);
    expect((await query(`bonly.${D}`, 'A', fromB)).answers).toMatchObject([{ data: '10.2.0.1' }]);
    expect(rcodeOf(await query(`bonly.${D}`, 'A', fromA))).toBe('NXDOMAIN');
  });

  it('a client on no served subnet gets the address it reached us on', async () => {
    const t = await started({ serverName: 'pxe' });
    const answer = await query(`pxe.${D}`, 'A', { port: t.port, server: SUBNET_B.server, from: '127.9.0.9' });
    expect(answer.answers).toMatchObject([{ data: SUBNET_B.server }]);
  });
});

describe('IPv6', () => {
  it('listens on the served IPv6 addresses; {server_ip} is then the IPv4 address of that interface', async () => {
    const nics = twoSubnetNics();
    nics[0]!.addresses.push({ address: '::1', family: 'ipv6', prefix: 128, cidr: '::1/128', subnet: '::1/128' });
    const t = await createTestCore({ nicReader: () => nics });
    cores.push(t);
    const port = await freeDnsPort();
    await t.core.area('dns').settings.update({ port });
    expect((await t.core.kernel.services.start('dns')).listen).toEqual(expect.arrayContaining([`udp [::1]:${port}`, `tcp [::1]:${port}`]));
    const socket = dgram.createSocket('udp6');
    await new Promise<void>((resolve) => socket.bind(0, '::1', resolve));
    try {
      const raw = await new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer over UDP/IPv6')), 3000);
        socket.once('message', (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        socket.send(encodeQuery('bootwright.local', 'A'), port, '::1');
      });
      expect(packet.decode(raw).answers).toMatchObject([{ type: 'A', data: SUBNET_A.server }]);
    } finally {
      socket.close();
    }
  });
});

describe('auto-records', () => {
  it('creates @ and <server_name> A {server_ip} at start, never twice; a deleted one stays deleted', async () => {
    const t = await started({ serverName: 'pxe' });
    const auto = () => t.core.area('dns').records.all().filter((record) => record.value === '{server_ip}');
    expect(auto().map((record) => [record.name, record.type])).toEqual([
      ['@', 'A'],
      ['pxe', 'A'],
    ]);
    await t.core.kernel.services.restart('dns');
    expect(auto()).toHaveLength(2);

    await t.core.area('dns').records.remove(auto()[1]!.id);
    await t.core.kernel.services.restart('dns');
    expect(auto().map((record) => record.name)).toEqual(['@']);

    // A new core on the same data directory (an app restart) does not bring it back either.
    const dataDir = t.dataDir;
    await t.core.stop();
    const again = await createTestCore({ nicReader: twoSubnetNics, dataDir });
    cores.push(again);
    expect((await again.core.kernel.services.start('dns')).state).toBe('running');
    expect(again.core.area('dns').records.all().filter((record) => record.value === '{server_ip}').map((record) => record.name)).toEqual(['@']);

    // A renamed server gets its record at the next start.
    await again.core.kernel.settings.update({ general: { server_name: 'boot2' } });
    await again.core.kernel.services.restart('dns');
    expect(again.core.area('dns').records.all().filter((record) => record.value === '{server_ip}').map((record) => record.name)).toEqual(['@', 'boot2']);
  });

  it('leaves a name alone that already has an A record', async () => {
    const t = await started({ serverName: 'pxe', start: false });
    await t.core.area('dns').records.create({ name: 'pxe', type: 'A', value: '10.0.0.3' });
    expect((await t.core.kernel.services.start('dns')).state).toBe('running');
    expect(t.core.area('dns').records.all().map((record) => [record.name, record.value])).toEqual([
      ['pxe', '10.0.0.3'],
      ['@', '{server_ip}'],
    ]);
  });
});

describe('names from hosts and leases', () => {
  it('answer <hostname>.<local_domain> A and PTR, follow changes, lose to explicit records, go with their source', async () => {
    const t = await started();
    const feed = fakeSource([
      { hostname: 'node1', ipv4: '10.5.0.11' },
      { hostname: 'Node2', ipv4: '10.5.0.12' },
      { hostname: 'bad name!', ipv4: '10.5.0.13' },
      { hostname: 'fixed', ipv4: '10.5.0.14' },
    ]);
    const remove = t.core.area('dns').addNameSource(feed.source);
    await t.core.area('dns').records.create({ name: 'fixed', type: 'A', value: '10.9.9.9' });
    await t.core.area('dns').sync();
    const at = { port: t.port };

    expect((await query(`node1.${D}`, 'A', at)).answers).toMatchObject([{ data: '10.5.0.11', ttl: 60 }]);
    expect((await query(`NODE2.${D}`, 'A', at)).answers).toMatchObject([{ data: '10.5.0.12' }]);
    expect((await query('11.0.5.10.in-addr.arpa', 'PTR', at)).answers).toMatchObject([{ type: 'PTR', data: `node1.${D}` }]);
    expect((await query(`fixed.${D}`, 'A', at)).answers).toMatchObject([{ data: '10.9.9.9' }]);
    expect(rcodeOf(await query('13.0.5.10.in-addr.arpa', 'PTR', at))).toBe('REFUSED');

    feed.set([{ hostname: 'node1', ipv4: '10.5.0.21' }]);
    await t.core.area('dns').sync();
    expect((await query(`node1.${D}`, 'A', at)).answers).toMatchObject([{ data: '10.5.0.21' }]);
    expect(rcodeOf(await query(`node2.${D}`, 'A', at))).toBe('NXDOMAIN');

    remove();
    await t.core.area('dns').sync();
    expect(rcodeOf(await query(`node1.${D}`, 'A', at))).toBe('NXDOMAIN');
  });
});
