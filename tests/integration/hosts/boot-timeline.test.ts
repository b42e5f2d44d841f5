import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from '../../../src-main/dhcp/server/dhcp-codec.js';
import { readClientRequest } from '../../../src-main/dhcp/server/client-request.js';
import { DhcpEngine, type OutgoingReply, type ServingContext } from '../../../src-main/dhcp/server/dhcp-engine.js';
import { DhcpObserver } from '../../../src-main/dhcp/server/dhcp-observer.js';
import type { BootingNow, HostTimeline } from '../../../src-main/hosts/hosts-contract.js';
import { bearerHeaders } from '../../helpers/auth.js';
import { type TestCore, createTestCore } from '../../helpers/test-core.js';
import { freeUdpPort, loopbackNics } from '../tftp/tftp-harness.js';
import { opt, request, typeOf } from '../../unit/dhcp/server/dhcp-test-kit.js';

/*
 * One machine's boot through the real core: a DHCP exchange through the DHCP
 * engine (the unit kit's packets, the core's leases and event log), the
 * first stage over TFTP and the boot script and a kernel over HTTP with curl
 * from the address the DHCP server gave — all on loopback (127.0.0.0/8) —
 * then the host's timeline shows the steps in order.
 */

const run = promisify(execFile);
const MAC = '52:54:00:7e:00:01';
const SERVER = '127.0.0.1';
const SERVER_INT = 0x7f000001;

let t: TestCore;
let tftpPort: number;
let httpBase: string;
let engine: DhcpEngine;
const sent: OutgoingReply[] = [];

beforeAll(async () => {
  t = await createTestCore({ nicReader: loopbackNics(), autoStartServices: ['tftp'] });
  const root = t.core.area('boot-files').files.root;
  await mkdir(path.join(root, 'debian'), { recursive: true });
  await writeFile(path.join(root, 'ipxe.efi'), Buffer.alloc(70_000, 1));
  await writeFile(path.join(root, 'debian', 'linux'), Buffer.alloc(200_000, 2));
  tftpPort = await freeUdpPort();
  await t.core.area('tftp').settings.update({ port: tftpPort });
  await t.core.start();
  await t.core.kernel.services.start('http');
  httpBase = t.core.url();

  const dhcp = t.core.area('dhcp');
  await dhcp.settings.update({
    interfaces: [{ name: 'bwtest0', mode: 'server' }],
    subnets: [{ subnet: '127.0.0.0/8', ranges: [{ start: '127.0.0.100', end: '127.0.0.109' }], lease_time_seconds: 600, router: SERVER, dns_servers: [], domain_name: null, ntp_servers: [], options: [] }],
  });
  engine = new DhcpEngine({
    settings: dhcp.settings,
    leases: dhcp.leases,
    reservations: dhcp.reservations,
    access: dhcp.access,
    archmap: dhcp.archmap,
    observer: new DhcpObserver({ events: t.core.kernel.events, metrics: t.core.kernel.metrics }),
    httpBase: (address) => `http://${address}`,
    defaultDnsServers: () => [],
    defaultDomain: () => null,
    ownAddresses: () => new Set([SERVER_INT]),
    send: (reply) => sent.push({ ...reply, packet: decode(encode(reply.packet)) }),
    ping: async () => false,
    now: () => Date.now(),
  });
}, 60_000);
afterAll(async () => t?.close());

const context = (): ServingContext => ({ interfaceName: 'bwtest0', serverAddress: SERVER, serverId: SERVER_INT, subnet: t.core.area('dhcp').settings.subnetFor(SERVER_INT) ?? null });

async function dhcpExchange(packet: ReturnType<typeof request>): Promise<OutgoingReply> {
  const before = sent.length;
  const client = readClientRequest(decode(encode(packet)));
  if (!client) throw new Error('not a client request');
  engine.handle(client, context());
  await t.core.area('dhcp').leases.durable();
  await expect.poll(() => sent.length).toBeGreaterThan(before);
  const reply = sent[before];
  if (!reply) throw new Error('no reply');
  return reply;
}

/** curl from the machine's leased address (Linux accepts any 127/8 source on lo). */
async function curl(from: string, url: string): Promise<void> {
  await run('curl', ['--silent', '--fail', '--max-time', '20', '--interface', from, '--output', '/dev/null', url], { timeout: 30_000 });
}

async function api<T>(url: string): Promise<{ status: number; data: T }> {
  const res = await t.core.http.inject({ method: 'GET', url: `/api/v1${url}`, headers: await bearerHeaders(t.core, 'viewer') });
  return { status: res.statusCode, data: (res.json() as { data: T }).data };
}

describe('boot timeline of a real boot', () => {
  it('shows DHCP, the TFTP first stage, the boot script and the kernel in order, and the boot as booting now', async () => {
    const offer = await dhcpExchange(request(MAC, 1, [opt.arch(7)]));
    expect(typeOf(offer.packet)).toBe(2);
    const address = offer.packet.yiaddr;
    const ack = await dhcpExchange(request(MAC, 3, [opt.arch(7), opt.serverId(SERVER), opt.requested(address)]));
    expect(typeOf(ack.packet)).toBe(5);

    await curl(address, `tftp://${SERVER}:${tftpPort}/ipxe.efi`);
    await curl(address, `${httpBase}/boot/ipxe/boot.ipxe?mac=${encodeURIComponent(MAC)}&arch=x86_64&platform=efi`);
    await curl(address, `${httpBase}/boot/debian/linux`);
    // The transfer events are emitted when the last byte left (the HTTP 'finish', TFTP's last ACK).
    await expect
      .poll(() => t.core.kernel.events.all().filter((e) => e.kind === 'http.transfer.completed' && e.ip === address).length, { timeout: 10_000 })
      .toBe(1);

    const timeline = await api<HostTimeline>(`/hosts/timeline?mac=${MAC.replaceAll(':', '-').toUpperCase()}`);
    expect(timeline.status).toBe(200);
    expect(timeline.data.mac).toBe(MAC);
    expect(timeline.data.boots).toHaveLength(1);
    const boot = timeline.data.boots[0]!;
    const kinds = boot.steps.map((step) => step.kind).filter((kind) => kind !== 'dhcp.lease.granted' && kind !== 'tftp.transfer.started' && kind !== 'host.discovered');
    expect(kinds).toEqual(['dhcp.discover', 'dhcp.offer', 'dhcp.request', 'dhcp.ack', 'tftp.transfer.completed', 'boot.script_served', 'http.transfer.completed']);
    expect(boot.steps.find((step) => step.kind === 'tftp.transfer.completed')?.detail).toMatchObject({ file: 'ipxe.efi', bytes: 70_000, ip: address });
    expect(boot.steps.find((step) => step.kind === 'http.transfer.completed')?.summary).toMatch(/^HTTP debian\/linux: 195\.3 KiB in \d+ (ms|s)$/);
    expect(boot.outcome).toBe('in_progress');

    // The machine was recorded as a discovered host when it asked for its script: its timeline by id is the same boot.
    const host = t.core.area('hosts').findByMac(MAC);
    expect(host).toBeDefined();
    const byId = await api<HostTimeline>(`/hosts/${host?.id ?? 0}/timeline`);
    expect(byId.data).toEqual({ ...timeline.data, host_id: host?.id });

    const now = await api<BootingNow[]>('/hosts/booting-now');
    expect(now.data.map((row) => row.mac)).toEqual([MAC]);
    expect(now.data[0]?.boot.steps).toHaveLength(boot.steps.length);
  }, 60_000);

  it('answers 404 for an unknown host and 400 for a bad MAC', async () => {
    expect((await api('/hosts/99999/timeline')).status).toBe(404);
    expect((await api('/hosts/timeline?mac=nope')).status).toBe(400);
    expect((await api('/hosts/timeline?mac=52:54:00:00:00:99')).data).toEqual({ mac: '52:54:00:00:00:99', host_id: null, boots: [] });
  });
});
