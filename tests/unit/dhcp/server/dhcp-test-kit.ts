import { AccessPolicy } from '../../../../src-main/dhcp/access-policy.js';
import type { DhcpSettingsPatch, DhcpSubnet } from '../../../../src-main/dhcp/dhcp-contract.js';
import type { Nic } from '../../../../src-main/network/nic.js';
import { readClientRequest, type ClientRequest } from '../../../../src-main/dhcp/server/client-request.js';
import { chaddrFromMac, decode, encode, findOption, type DhcpOption, type DhcpPacket } from '../../../../src-main/dhcp/server/dhcp-codec.js';
import { DhcpEngine, type OutgoingReply, type PingProbe, type ServingContext } from '../../../../src-main/dhcp/server/dhcp-engine.js';
import { DhcpObserver } from '../../../../src-main/dhcp/server/dhcp-observer.js';
import { OPT } from '../../../../src-main/dhcp/dhcp-options.js';
import { ProxyResponder } from '../../../../src-main/dhcp/server/proxy-responder.js';
import { createTestCore, type TestCore } from '../../../helpers/test-core.js';

/** A fake machine with one NIC on 10.50.0.0/24 (our address .1) and one on 10.60.0.0/24. */
export const TEST_NICS: Nic[] = [
  {
    name: 'eth1',
    mac: '02:00:00:00:00:01',
    mtu: 1500,
    up: true,
    link: 'up',
    internal: false,
    addresses: [{ address: '10.50.0.1', family: 'ipv4', prefix: 24, cidr: '10.50.0.1/24', subnet: '10.50.0.0/24' }],
  },
  {
    name: 'eth2',
    mac: '02:00:00:00:00:02',
    mtu: 1500,
    up: true,
    link: 'up',
    internal: false,
    addresses: [{ address: '10.60.0.1', family: 'ipv4', prefix: 24, cidr: '10.60.0.1/24', subnet: '10.60.0.0/24' }],
  },
];

export function subnetConfig(overrides: Partial<DhcpSubnet> = {}): DhcpSubnet {
  return {
    subnet: '10.50.0.0/24',
    ranges: [{ start: '10.50.0.100', end: '10.50.0.109' }],
    lease_time_seconds: 600,
    router: '10.50.0.1',
    dns_servers: ['10.50.0.53'],
    domain_name: 'lab.test',
    ntp_servers: [],
    options: [],
    ...overrides,
  };
}

/** Builds a client request packet. */
export function request(mac: string, type: number, options: DhcpOption[] = [], fields: Partial<DhcpPacket> = {}): DhcpPacket {
  return {
    op: 1,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid: Math.floor(Math.random() * 0xffffffff),
    secs: 0,
    flags: 0,
    ciaddr: '0.0.0.0',
    yiaddr: '0.0.0.0',
    siaddr: '0.0.0.0',
    giaddr: '0.0.0.0',
    chaddr: chaddrFromMac(mac),
    sname: '',
    file: '',
    options: [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([type]) }, ...options],
    ...fields,
  };
}

export function ip(text: string): Buffer {
  return Buffer.from(text.split('.').map(Number));
}

export const opt = {
  requested: (address: string): DhcpOption => ({ code: OPT.REQUESTED_IP, data: ip(address) }),
  serverId: (address: string): DhcpOption => ({ code: OPT.SERVER_ID, data: ip(address) }),
  vendorClass: (text: string): DhcpOption => ({ code: OPT.VENDOR_CLASS, data: Buffer.from(text) }),
  userClass: (text: string): DhcpOption => ({ code: OPT.USER_CLASS, data: Buffer.from(text) }),
  arch: (code: number): DhcpOption => ({ code: OPT.CLIENT_ARCH, data: Buffer.from([code >> 8, code & 255]) }),
  uuid: (): DhcpOption => ({ code: OPT.CLIENT_UUID, data: Buffer.from([0, ...Array.from({ length: 16 }, (_, i) => i)]) }),
  hostname: (name: string): DhcpOption => ({ code: OPT.HOSTNAME, data: Buffer.from(name) }),
  maxSize: (size: number): DhcpOption => ({ code: OPT.MAX_MESSAGE_SIZE, data: Buffer.from([size >> 8, size & 255]) }),
};

/** The message type of a reply. */
export function typeOf(packet: DhcpPacket): number {
  return findOption(packet, OPT.MESSAGE_TYPE)?.[0] ?? 0;
}

export function optionText(packet: DhcpPacket, code: number): string | undefined {
  return findOption(packet, code)?.toString('latin1');
}

/**
 * An engine and a proxy responder on a test core's DHCP area, with replies
 * collected (after encode/decode, as they would go on the wire).
 */
export class EngineKit {
  readonly test: TestCore;
  readonly engine: DhcpEngine;
  readonly proxy: ProxyResponder;
  readonly sent: OutgoingReply[] = [];
  pingAnswers = new Set<string>();
  clock = Date.now();

  private constructor(test: TestCore, engine: DhcpEngine, proxy: ProxyResponder) {
    this.test = test;
    this.engine = engine;
    this.proxy = proxy;
  }

  static async create(settings: DhcpSettingsPatch = {}): Promise<EngineKit> {
    const test = await createTestCore({ nicReader: () => TEST_NICS });
    const dhcp = test.core.area('dhcp');
    const ctx = { events: test.core.kernel.events, metrics: test.core.kernel.metrics, leases: dhcp.leases, dhcpSettings: dhcp.settings, reservations: dhcp.reservations, access: dhcp.access, archmap: dhcp.archmap };
    await ctx.dhcpSettings.update({ interfaces: [{ name: 'eth1', mode: 'server' }], subnets: [subnetConfig()], ...settings });
    const observer = new DhcpObserver({ events: ctx.events, metrics: ctx.metrics });
    let kit: EngineKit | null = null;
    const send = (reply: OutgoingReply) => {
      // Through the codec, as the socket would carry it.
      kit!.sent.push({ ...reply, packet: decode(encode(reply.packet)) });
    };
    const ping: PingProbe = async (address) => kit!.pingAnswers.has(address);
    const engine = new DhcpEngine({
      settings: ctx.dhcpSettings,
      leases: ctx.leases,
      reservations: ctx.reservations,
      access: ctx.access,
      archmap: ctx.archmap,
      observer,
      httpBase: (address) => `http://${address}:8080`,
      defaultDnsServers: () => [],
      defaultDomain: () => null,
      ownAddresses: () => new Set([(10 << 24) + (50 << 16) + 1, (10 << 24) + (60 << 16) + 1]),
      send,
      ping,
      now: () => kit!.clock,
    });
    const proxy = new ProxyResponder({ access: ctx.access, archmap: ctx.archmap, reservations: ctx.reservations, observer, httpBase: (address) => `http://${address}:8080`, send });
    kit = new EngineKit(test, engine, proxy);
    return kit;
  }

  /** The DHCP area's parts and the event log of the test core. */
  get ctx() {
    const dhcp = this.test.core.area('dhcp');
    return { events: this.test.core.kernel.events, leases: dhcp.leases, dhcpSettings: dhcp.settings, reservations: dhcp.reservations, access: dhcp.access, archmap: dhcp.archmap };
  }

  get access(): AccessPolicy {
    return this.ctx.access;
  }

  /** The serving context of eth1 (10.50.0.1). */
  context(name: 'eth1' | 'eth2' = 'eth1'): ServingContext {
    const address = name === 'eth1' ? '10.50.0.1' : '10.60.0.1';
    const addressInt = (10 << 24) + ((name === 'eth1' ? 50 : 60) << 16) + 1;
    return { interfaceName: name, serverAddress: address, serverId: addressInt, subnet: this.ctx.dhcpSettings.subnetFor(addressInt) ?? null };
  }

  client(packet: DhcpPacket): ClientRequest {
    const client = readClientRequest(decode(encode(packet)));
    if (!client) throw new Error('not a client request');
    return client;
  }

  /** Hands a request to the engine and returns the replies it produced (ACKs after the journal sync). */
  async handle(packet: DhcpPacket, context: ServingContext = this.context()): Promise<OutgoingReply[]> {
    const before = this.sent.length;
    this.engine.handle(this.client(packet), context);
    await this.ctx.leases.durable();
    // Ping probes and durable callbacks settle within a few turns.
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    return this.sent.slice(before);
  }

  /** DISCOVER + REQUEST; returns the ACK. */
  async lease(mac: string, extra: DhcpOption[] = []): Promise<DhcpPacket> {
    const [offer] = await this.handle(request(mac, 1, extra));
    if (!offer) throw new Error(`no offer for ${mac}`);
    const [ack] = await this.handle(request(mac, 3, [opt.serverId('10.50.0.1'), opt.requested(offer.packet.yiaddr), ...extra]));
    if (!ack || typeOf(ack.packet) !== 5) throw new Error(`no ack for ${mac}`);
    return ack.packet;
  }

  close(): Promise<void> {
    return this.test.close();
  }
}
