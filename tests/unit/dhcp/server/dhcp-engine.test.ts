import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOption } from '../../../../src-main/dhcp/server/dhcp-codec.js';
import { OPT } from '../../../../src-main/dhcp/dhcp-options.js';
import { EngineKit, opt, optionText, request, subnetConfig, typeOf } from './dhcp-test-kit.js';

const MAC_A = '52:54:00:00:00:0a';
const MAC_B = '52:54:00:00:00:0b';
const MAC_C = '52:54:00:00:00:0c';
const MAC_D = '52:54:00:00:00:0d';
const DISCOVER = 1;
const REQUEST = 3;
const DECLINE = 4;
const RELEASE = 7;
const INFORM = 8;

let kit: EngineKit;
afterEach(async () => {
  await kit.close();
});

describe('DHCP server lifecycle (RFC 2131 §4.3)', () => {
  beforeEach(async () => {
    kit = await EngineKit.create();
  });

  it('offers the first pool address with the subnet options, broadcast to the client', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER));
    expect(offer).toBeDefined();
    const packet = offer!.packet;
    expect(typeOf(packet)).toBe(2);
    expect(packet.yiaddr).toBe('10.50.0.100');
    expect(findOption(packet, OPT.SERVER_ID)).toEqual(Buffer.from([10, 50, 0, 1]));
    expect(findOption(packet, OPT.SUBNET_MASK)).toEqual(Buffer.from([255, 255, 255, 0]));
    expect(findOption(packet, OPT.ROUTER)).toEqual(Buffer.from([10, 50, 0, 1]));
    expect(findOption(packet, OPT.DNS_SERVERS)).toEqual(Buffer.from([10, 50, 0, 53]));
    expect(optionText(packet, OPT.DOMAIN_NAME)).toBe('lab.test');
    expect(findOption(packet, OPT.LEASE_TIME)!.readUInt32BE(0)).toBe(600);
    expect(findOption(packet, OPT.RENEWAL_TIME)!.readUInt32BE(0)).toBe(300);
    expect(findOption(packet, OPT.REBINDING_TIME)!.readUInt32BE(0)).toBe(525);
    expect(offer!.destination).toEqual({ address: '255.255.255.255', port: 68, broadcast: true });
    expect(offer!.context.interfaceName).toBe('eth1');
  });

  it('acknowledges a selecting REQUEST only once the lease is on disk', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER));
    const client = kit.client(request(MAC_A, REQUEST, [opt.serverId('10.50.0.1'), opt.requested(offer!.packet.yiaddr)]));
    const before = kit.sent.length;
    kit.engine.handle(client, kit.context());
    // The lease is committed in memory, the ACK waits for the journal.
    expect(kit.ctx.leases.get(MAC_A)?.ip).toBeDefined();
    expect(kit.sent.length).toBe(before);
    await kit.ctx.leases.durable();
    await new Promise((resolve) => setImmediate(resolve));
    const ack = kit.sent[before]!;
    expect(typeOf(ack.packet)).toBe(5);
    expect(ack.packet.yiaddr).toBe('10.50.0.100');
    const kinds = kit.ctx.events.all().map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['dhcp.discover', 'dhcp.offer', 'dhcp.request', 'dhcp.ack', 'dhcp.lease.granted']));
  });

  it('gives the same client the same address back, and another client another one', async () => {
    const first = await kit.lease(MAC_A);
    const [again] = await kit.handle(request(MAC_A, DISCOVER));
    expect(again!.packet.yiaddr).toBe(first.yiaddr);
    const other = await kit.lease(MAC_B);
    expect(other.yiaddr).not.toBe(first.yiaddr);
  });

  it('drops its offer when the client selects another server', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER));
    const replies = await kit.handle(request(MAC_A, REQUEST, [opt.serverId('10.50.0.254'), opt.requested(offer!.packet.yiaddr)]));
    expect(replies).toHaveLength(0);
    // The held address is free for the next client that asks for it.
    const [forB] = await kit.handle(request(MAC_B, DISCOVER, [opt.requested(offer!.packet.yiaddr)]));
    expect(forB!.packet.yiaddr).toBe(offer!.packet.yiaddr);
  });

  it('NAKs a selecting REQUEST for an address another client holds', async () => {
    const a = await kit.lease(MAC_A);
    const [nak] = await kit.handle(request(MAC_B, REQUEST, [opt.serverId('10.50.0.1'), opt.requested(a.yiaddr)]));
    expect(typeOf(nak!.packet)).toBe(6);
    expect(nak!.destination.address).toBe('255.255.255.255');
  });

  it('answers INIT-REBOOT: ACK for its own address, NAK for a wrong network, silence for a stranger', async () => {
    const a = await kit.lease(MAC_A);
    const [ack] = await kit.handle(request(MAC_A, REQUEST, [opt.requested(a.yiaddr)]));
    expect(typeOf(ack!.packet)).toBe(5);
    const [nak] = await kit.handle(request(MAC_A, REQUEST, [opt.requested('192.168.1.20')]));
    expect(typeOf(nak!.packet)).toBe(6);
    expect(await kit.handle(request(MAC_C, REQUEST, [opt.requested('10.50.0.105')]))).toHaveLength(0);
  });

  it('stays silent on a wrong network when not authoritative', async () => {
    await kit.ctx.dhcpSettings.update({ authoritative: false });
    kit.engine.reload();
    expect(await kit.handle(request(MAC_A, REQUEST, [opt.requested('192.168.1.20')]))).toHaveLength(0);
  });

  it('renews by unicast to ciaddr and NAKs a renewal of someone else\'s address', async () => {
    const a = await kit.lease(MAC_A);
    kit.clock += 60_000;
    const [renewed] = await kit.handle(request(MAC_A, REQUEST, [], { ciaddr: a.yiaddr }));
    expect(typeOf(renewed!.packet)).toBe(5);
    expect(renewed!.destination).toEqual({ address: a.yiaddr, port: 68, broadcast: false });
    expect(kit.ctx.leases.get(MAC_A)!.expires).toBe(kit.clock + 600_000);
    const [nak] = await kit.handle(request(MAC_B, REQUEST, [], { ciaddr: a.yiaddr }));
    expect(typeOf(nak!.packet)).toBe(6);
  });

  it('quarantines a declined address and offers another one', async () => {
    const a = await kit.lease(MAC_A);
    expect(await kit.handle(request(MAC_A, DECLINE, [opt.serverId('10.50.0.1'), opt.requested(a.yiaddr)]))).toHaveLength(0);
    expect(kit.ctx.leases.get(MAC_A)).toBeUndefined();
    const [next] = await kit.handle(request(MAC_A, DISCOVER));
    expect(next!.packet.yiaddr).not.toBe(a.yiaddr);
    const [forB] = await kit.handle(request(MAC_B, DISCOVER, [opt.requested(a.yiaddr)]));
    expect(forB!.packet.yiaddr).not.toBe(a.yiaddr);
    expect(kit.ctx.events.all().some((event) => event.kind === 'dhcp.decline' && event.ip === a.yiaddr)).toBe(true);
    // After the quarantine the address is back in the pool.
    kit.clock += 86_400_000 + 1;
    const [later] = await kit.handle(request(MAC_C, DISCOVER, [opt.requested(a.yiaddr)]));
    expect(later!.packet.yiaddr).toBe(a.yiaddr);
  });

  it('ignores a DECLINE of an address the client was never given', async () => {
    await kit.lease(MAC_A);
    await kit.handle(request(MAC_B, DECLINE, [opt.serverId('10.50.0.1'), opt.requested('10.50.0.100')]));
    expect(kit.ctx.leases.get(MAC_A)).toBeDefined();
  });

  it('ends a released lease and keeps the address for the same client', async () => {
    const a = await kit.lease(MAC_A);
    await kit.handle(request(MAC_A, RELEASE, [opt.serverId('10.50.0.1')], { ciaddr: a.yiaddr }));
    expect(kit.ctx.leases.get(MAC_A)!.expires).toBeLessThanOrEqual(kit.clock);
    const [again] = await kit.handle(request(MAC_A, DISCOVER));
    expect(again!.packet.yiaddr).toBe(a.yiaddr);
  });

  it('answers INFORM with options but no lease, to ciaddr', async () => {
    const [ack] = await kit.handle(request(MAC_C, INFORM, [], { ciaddr: '10.50.0.7' }));
    expect(typeOf(ack!.packet)).toBe(5);
    expect(ack!.packet.yiaddr).toBe('0.0.0.0');
    expect(findOption(ack!.packet, OPT.LEASE_TIME)).toBeUndefined();
    expect(findOption(ack!.packet, OPT.ROUTER)).toBeDefined();
    expect(ack!.destination.address).toBe('10.50.0.7');
  });

  it('serves relayed requests from the subnet of giaddr and answers the relay on port 67', async () => {
    await kit.ctx.dhcpSettings.update({
      subnets: [subnetConfig(), subnetConfig({ subnet: '172.20.0.0/16', ranges: [{ start: '172.20.1.1', end: '172.20.1.9' }], router: '172.20.0.1' })],
    });
    kit.engine.reload();
    const relayed = request(MAC_A, DISCOVER, [], { giaddr: '172.20.0.1' });
    const context = { ...kit.context(), subnet: kit.ctx.dhcpSettings.subnetFor((172 << 24) + (20 << 16) + 1) ?? null };
    const [offer] = await kit.handle(relayed, context);
    expect(offer!.packet.yiaddr).toBe('172.20.1.1');
    expect(offer!.packet.giaddr).toBe('172.20.0.1');
    expect(offer!.destination).toEqual({ address: '172.20.0.1', port: 67, broadcast: false });
  });

  it('offers nothing when the pool is exhausted, then reuses expired addresses', async () => {
    await kit.ctx.dhcpSettings.update({ subnets: [subnetConfig({ ranges: [{ start: '10.50.0.100', end: '10.50.0.101' }] })] });
    kit.engine.reload();
    await kit.lease(MAC_A);
    await kit.lease(MAC_B);
    expect(await kit.handle(request(MAC_C, DISCOVER))).toHaveLength(0);
    kit.clock += 601_000;
    const [offer] = await kit.handle(request(MAC_C, DISCOVER));
    expect(['10.50.0.100', '10.50.0.101']).toContain(offer!.packet.yiaddr);
  });

  it('drops options beyond the client\'s maximum message size, keeping the required ones', async () => {
    const big = Array.from({ length: 10 }, (_, i) => ({ code: 200 + i, type: 'string' as const, value: 'x'.repeat(200) }));
    await kit.ctx.dhcpSettings.update({ subnets: [subnetConfig({ options: big })] });
    kit.engine.reload();
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.maxSize(576)]));
    expect(offer).toBeDefined();
    const custom = offer!.packet.options.filter((o) => o.code >= 200);
    expect(custom.length).toBeLessThan(10);
    expect(findOption(offer!.packet, OPT.SUBNET_MASK)).toBeDefined();
  });

  it('skips an address that answers ping and keeps it out of the pool', async () => {
    await kit.ctx.dhcpSettings.update({ ping_check: true });
    kit.pingAnswers.add('10.50.0.100');
    const [offer] = await kit.handle(request(MAC_A, DISCOVER));
    expect(offer!.packet.yiaddr).toBe('10.50.0.101');
    expect(kit.ctx.leases.isQuarantined((10 << 24) + (50 << 16) + 100, kit.clock)).toBe(true);
  });
});

describe('reservations', () => {
  beforeEach(async () => {
    kit = await EngineKit.create();
  });

  it('gives a reserved client its fixed address and never gives that address to others', async () => {
    await kit.ctx.reservations.create({ mac: MAC_A, ip: '10.50.0.100', hostname: 'fixed' });
    const [other] = await kit.handle(request(MAC_B, DISCOVER, [opt.requested('10.50.0.100')]));
    expect(other!.packet.yiaddr).not.toBe('10.50.0.100');
    const [nak] = await kit.handle(request(MAC_B, REQUEST, [opt.serverId('10.50.0.1'), opt.requested('10.50.0.100')]));
    expect(typeOf(nak!.packet)).toBe(6);
    const mine = await kit.lease(MAC_A);
    expect(mine.yiaddr).toBe('10.50.0.100');
    expect(optionText(mine, OPT.HOSTNAME)).toBe('fixed');
  });

  it('hands out a reserved address outside the ranges', async () => {
    await kit.ctx.reservations.create({ mac: MAC_A, ip: '10.50.0.20' });
    expect((await kit.lease(MAC_A)).yiaddr).toBe('10.50.0.20');
  });

  it('NAKs a renewal of a dynamic address once the client has a reservation elsewhere', async () => {
    const dynamic = await kit.lease(MAC_A);
    await kit.ctx.reservations.create({ mac: MAC_A, ip: '10.50.0.30' });
    const [nak] = await kit.handle(request(MAC_A, REQUEST, [], { ciaddr: dynamic.yiaddr }));
    expect(typeOf(nak!.packet)).toBe(6);
    expect((await kit.lease(MAC_A)).yiaddr).toBe('10.50.0.30');
  });

  it('applies a reservation\'s options and boot file override', async () => {
    await kit.ctx.reservations.create({
      mac: MAC_A,
      ip: '10.50.0.40',
      boot_file: 'custom/loader.efi',
      options: [{ code: 252, type: 'string', value: 'http://wpad' }],
    });
    const ack = await kit.lease(MAC_A, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)]);
    expect(ack.file).toBe('custom/loader.efi');
    expect(optionText(ack, 252)).toBe('http://wpad');
  });
});

describe('access control', () => {
  beforeEach(async () => {
    kit = await EngineKit.create();
  });

  it('never answers a blacklisted client and emits dhcp.denied', async () => {
    await kit.access.add('blacklist', { mac: MAC_A });
    expect(await kit.handle(request(MAC_A, DISCOVER))).toHaveLength(0);
    const denied = kit.ctx.events.all().find((event) => event.kind === 'dhcp.denied');
    expect(denied?.mac).toBe(MAC_A);
    expect(denied?.detail).toMatchObject({ reason: 'blacklisted' });
    expect(kit.access.unauthorizedDevices()).toHaveLength(0);
  });

  it('in whitelist mode answers only listed clients and records the others', async () => {
    await kit.ctx.dhcpSettings.update({ access_mode: 'whitelist' });
    await kit.access.add('whitelist', { mac: MAC_B });
    expect(await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00000:UNDI:002001'), opt.arch(0), opt.hostname('intruder')]))).toHaveLength(0);
    expect(await kit.handle(request(MAC_A, DISCOVER))).toHaveLength(0);
    await kit.access.unauthorizedSettled();
    const [device] = kit.access.unauthorizedDevices();
    expect(device).toMatchObject({ mac: MAC_A, count: 2, vendor_class: 'PXEClient:Arch:00000:UNDI:002001', arch: 0, hostname: 'intruder' });
    expect(await kit.handle(request(MAC_B, DISCOVER))).toHaveLength(1);
  });
});

describe('PXE boot information', () => {
  beforeEach(async () => {
    kit = await EngineKit.create();
  });

  it('BIOS PXE ROM: TFTP file undionly.kpxe from our address, option 97 echoed, no option 60', async () => {
    const uuid = opt.uuid();
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00000:UNDI:002001'), opt.arch(0), uuid]));
    const packet = offer!.packet;
    expect(packet.file).toBe('undionly.kpxe');
    expect(packet.siaddr).toBe('10.50.0.1');
    expect(packet.sname).toBe('10.50.0.1');
    expect(optionText(packet, OPT.TFTP_SERVER_NAME)).toBe('10.50.0.1');
    expect(optionText(packet, OPT.BOOTFILE_NAME)).toBe('undionly.kpxe');
    expect(findOption(packet, OPT.CLIENT_UUID)).toEqual(uuid.data);
    expect(findOption(packet, OPT.VENDOR_CLASS)).toBeUndefined();
  });

  /** UEFI machines on iPXE (the archmap's files) instead of the shipped default, the signed GRUB chain. */
  async function uefiOnIpxe(): Promise<void> {
    await kit.test.core.kernel.settings.update({ netboot: { boot_loaders: { uefi_x64: 'ipxe', uefi_arm64: 'ipxe', groups: {} } } });
  }

  it('UEFI x64 and ARM64 PXE get the signed GRUB chain by default: the shim, which loads GRUB', async () => {
    const [x64] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)]));
    expect(x64!.packet.file).toBe('shimx64.efi');
    expect(optionText(x64!.packet, OPT.TFTP_SERVER_NAME)).toBe('10.50.0.1');
    const [ebc] = await kit.handle(request(MAC_C, DISCOVER, [opt.vendorClass('PXEClient:Arch:00009:UNDI:003016'), opt.arch(9)]));
    expect(ebc!.packet.file).toBe('shimx64.efi');
    const [arm] = await kit.handle(request(MAC_B, DISCOVER, [opt.vendorClass('PXEClient:Arch:00011:UNDI:003000'), opt.arch(11)]));
    expect(arm!.packet.file).toBe('shimaa64.efi');
    // BIOS has no signed chain: iPXE as always.
    const [bios] = await kit.handle(request(MAC_D, DISCOVER, [opt.vendorClass('PXEClient:Arch:00000:UNDI:002001'), opt.arch(0)]));
    expect(bios!.packet.file).toBe('undionly.kpxe');
  });

  it("a host's own boot_loader wins over its group's, which wins over the architecture's default; a reservation's boot_file over all", async () => {
    const hosts = kit.test.core.area('hosts');
    await kit.test.core.kernel.settings.update({ netboot: { boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'grub', groups: { Lab: 'ipxe' } } } });
    await hosts.create({ mac: MAC_A, group: 'lab' });
    await hosts.create({ mac: MAC_B, group: 'lab', boot_loader: 'grub' });
    const x64 = [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)];
    const [groupOffer] = await kit.handle(request(MAC_A, DISCOVER, x64));
    expect(groupOffer!.packet.file).toBe('ipxe.efi');
    const [hostOffer] = await kit.handle(request(MAC_B, DISCOVER, x64));
    expect(hostOffer!.packet.file).toBe('shimx64.efi');
    await kit.ctx.reservations.create({ mac: MAC_B, ip: '10.50.0.60', boot_file: 'custom/loader.efi' });
    const [reserved] = await kit.handle(request(MAC_B, DISCOVER, x64));
    expect(reserved!.packet.file).toBe('custom/loader.efi');
    // iPXE (chained from GRUB with Secure Boot off) still gets the entry script, never the shim again.
    const [ipxe] = await kit.handle(request(MAC_A, DISCOVER, [...x64, opt.userClass('iPXE')]));
    expect(ipxe!.packet.file).toBe('http://10.50.0.1:8080/boot/ipxe/entry.ipxe');
  });

  it('UEFI x64 PXE on iPXE: ipxe.efi; ARM64: ipxe-arm64.efi', async () => {
    await uefiOnIpxe();
    const [x64] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)]));
    expect(x64!.packet.file).toBe('ipxe.efi');
    const [arm] = await kit.handle(request(MAC_B, DISCOVER, [opt.vendorClass('PXEClient:Arch:00011:UNDI:003000'), opt.arch(11)]));
    expect(arm!.packet.file).toBe('ipxe-arm64.efi');
  });

  it('iPXE: the entry script URL over HTTP, which ends the chain loop', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.userClass('iPXE'), opt.arch(7)]));
    expect(offer!.packet.file).toBe('http://10.50.0.1:8080/boot/ipxe/entry.ipxe');
    expect(optionText(offer!.packet, OPT.BOOTFILE_NAME)).toBe('http://10.50.0.1:8080/boot/ipxe/entry.ipxe');
    // iPXE's no-pxedhcp (175.176 = 1): it REQUESTs at once instead of waiting 2 s for ProxyDHCP offers.
    expect(findOption(offer!.packet, OPT.IPXE_ENCAP)).toEqual(Buffer.from([176, 1, 1]));
  });

  it('a PXE ROM that is not iPXE gets no iPXE options', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)]));
    expect(findOption(offer!.packet, OPT.IPXE_ENCAP)).toBeUndefined();
  });

  it('UEFI HTTP boot: an http URL and option 60 HTTPClient', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('HTTPClient:Arch:00016:UNDI:003001'), opt.arch(16)]));
    expect(offer!.packet.file).toBe('http://10.50.0.1:8080/boot/ipxe.efi');
    expect(optionText(offer!.packet, OPT.VENDOR_CLASS)).toBe('HTTPClient');
  });

  it('follows an edited architecture map', async () => {
    await uefiOnIpxe();
    const entries = kit.ctx.archmap.entries().map((entry) => (entry.code === 7 ? { ...entry, boot_file: 'snponly.efi' } : entry));
    await kit.ctx.archmap.replace(entries);
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)]));
    expect(offer!.packet.file).toBe('snponly.efi');
  });

  it('gives ordinary clients no boot information', async () => {
    const [offer] = await kit.handle(request(MAC_A, DISCOVER, [opt.vendorClass('udhcp 1.35.0')]));
    expect(offer!.packet.file).toBe('');
    expect(findOption(offer!.packet, OPT.BOOTFILE_NAME)).toBeUndefined();
  });
});

describe('proxyDHCP', () => {
  beforeEach(async () => {
    kit = await EngineKit.create({ interfaces: [{ name: 'eth1', mode: 'proxy' }], subnets: [] });
  });

  function proxy(packet: Parameters<EngineKit['client']>[0], pxePort = false) {
    const before = kit.sent.length;
    kit.proxy.handle(kit.client(packet), kit.context(), { pxePort, ...(pxePort ? { source: { address: '10.50.0.77', port: 68, broadcast: false } } : {}) });
    return kit.sent.slice(before);
  }

  it('answers a PXE DISCOVER with boot information and no address', () => {
    const [offer] = proxy(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00000:UNDI:002001'), opt.arch(0), opt.uuid()]));
    const packet = offer!.packet;
    expect(typeOf(packet)).toBe(2);
    expect(packet.yiaddr).toBe('0.0.0.0');
    expect(packet.siaddr).toBe('10.50.0.1');
    expect(packet.file).toBe('undionly.kpxe');
    expect(optionText(packet, OPT.VENDOR_CLASS)).toBe('PXEClient');
    expect(findOption(packet, OPT.VENDOR_SPECIFIC)).toEqual(Buffer.from([6, 1, 8, 255]));
    expect(findOption(packet, OPT.CLIENT_UUID)).toBeDefined();
    expect(offer!.destination.address).toBe('255.255.255.255');
  });

  it('ignores ordinary clients and REQUESTs for the LAN server', () => {
    expect(proxy(request(MAC_A, DISCOVER, [opt.vendorClass('udhcp 1.35.0')]))).toHaveLength(0);
    expect(proxy(request(MAC_A, REQUEST, [opt.vendorClass('PXEClient:Arch:00000:UNDI:002001'), opt.serverId('10.50.0.254'), opt.requested('10.50.0.9')]))).toHaveLength(0);
  });

  it('answers a port 4011 REQUEST with an ACK back to its source, repeating the boot item', async () => {
    await kit.test.core.kernel.settings.update({ netboot: { boot_loaders: { uefi_x64: 'ipxe', uefi_arm64: 'ipxe', groups: {} } } });
    const bootItem = { code: OPT.VENDOR_SPECIFIC, data: Buffer.from([71, 4, 0x80, 0x00, 0x00, 0x00, 255]) };
    const [ack] = proxy(request(MAC_A, REQUEST, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7), bootItem], { ciaddr: '10.50.0.77' }), true);
    expect(typeOf(ack!.packet)).toBe(5);
    expect(ack!.packet.file).toBe('ipxe.efi');
    expect(ack!.destination).toEqual({ address: '10.50.0.77', port: 68, broadcast: false });
    expect(ack!.viaPxePort).toBe(true);
    expect(findOption(ack!.packet, OPT.VENDOR_SPECIFIC)).toEqual(Buffer.from([6, 1, 8, 71, 4, 0x80, 0, 0, 0, 255]));
  });

  it("puts a port 4011 REQUEST's client address in its events (the boot timeline ties later transfers to the MAC by it)", () => {
    const before = kit.ctx.events.all().at(-1)?.id ?? 0;
    proxy(request(MAC_A, REQUEST, [opt.vendorClass('PXEClient:Arch:00007:UNDI:003016'), opt.arch(7)], { ciaddr: '10.50.0.77' }), true);
    const events = kit.ctx.events.since(before).filter((event) => event.kind === 'dhcp.request' || event.kind === 'dhcp.ack');
    expect(events.map((event) => [event.kind, event.mac, event.ip])).toEqual([
      ['dhcp.request', MAC_A, '10.50.0.77'],
      ['dhcp.ack', MAC_A, '10.50.0.77'],
    ]);
  });

  it('refuses blacklisted PXE clients', async () => {
    await kit.access.add('blacklist', { mac: MAC_A });
    expect(proxy(request(MAC_A, DISCOVER, [opt.vendorClass('PXEClient:Arch:00000:UNDI:002001')]))).toHaveLength(0);
  });
});
