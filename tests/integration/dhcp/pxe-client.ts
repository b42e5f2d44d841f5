/**
 * A scripted PXE ROM for the proxyDHCP test, run inside a test namespace:
 *   node --import tsx pxe-client.ts <json>
 * with `{ "address": "<our configured address>", "mac": "…", "arch": 0,
 * "bootServer": "<address for the 4011 request>" | null }`.
 *
 * Broadcasts a DHCPDISCOVER with the PXE options (vendor class PXEClient,
 * option 93, option 97), prints every OFFER it gets within two seconds as a
 * JSON line, then (when bootServer is set) sends the boot server REQUEST to
 * port 4011 and prints the ACK. Only our own codec is used, so what the
 * server sent is what is printed.
 */
import dgram from 'node:dgram';
import { chaddrFromMac, decode, encode, findOption, type DhcpPacket } from '../../../src-main/dhcp/server/dhcp-codec.js';
import { OPT } from '../../../src-main/dhcp/dhcp-options.js';

interface Args {
  address: string;
  mac: string;
  arch: number;
  bootServer: string | null;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const xid = Math.floor(Math.random() * 0xffffffff);
const uuid = Buffer.from([0, ...Array.from({ length: 16 }, (_, i) => 0xa0 + i)]);
const archName = String(args.arch).padStart(5, '0');

function pxeRequest(type: number, ciaddr: string, extra: { code: number; data: Buffer }[] = []): DhcpPacket {
  return {
    op: 1,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid,
    secs: 4,
    flags: 0x8000,
    ciaddr,
    yiaddr: '0.0.0.0',
    siaddr: '0.0.0.0',
    giaddr: '0.0.0.0',
    chaddr: chaddrFromMac(args.mac),
    sname: '',
    file: '',
    options: [
      { code: OPT.MESSAGE_TYPE, data: Buffer.from([type]) },
      { code: OPT.MAX_MESSAGE_SIZE, data: Buffer.from([0x05, 0xc0]) },
      { code: OPT.PARAMETER_LIST, data: Buffer.from([1, 3, 6, 43, 60, 66, 67, 97, 128, 129]) },
      { code: OPT.CLIENT_ARCH, data: Buffer.from([args.arch >> 8, args.arch & 255]) },
      { code: OPT.CLIENT_NDI, data: Buffer.from([1, 2, 1]) },
      { code: OPT.CLIENT_UUID, data: uuid },
      { code: OPT.VENDOR_CLASS, data: Buffer.from(`PXEClient:Arch:${archName}:UNDI:002001`) },
      ...extra,
    ],
  };
}

function summary(packet: DhcpPacket, from: string) {
  return {
    from,
    type: findOption(packet, OPT.MESSAGE_TYPE)?.[0] ?? 0,
    xid: packet.xid,
    yiaddr: packet.yiaddr,
    siaddr: packet.siaddr,
    file: packet.file,
    server_id: findOption(packet, OPT.SERVER_ID)?.join('.') ?? null,
    vendor_class: findOption(packet, OPT.VENDOR_CLASS)?.toString('latin1') ?? null,
    bootfile_option: findOption(packet, OPT.BOOTFILE_NAME)?.toString('latin1') ?? null,
    vendor_options: findOption(packet, OPT.VENDOR_SPECIFIC)?.toString('hex') ?? null,
    uuid_echoed: findOption(packet, OPT.CLIENT_UUID)?.equals(uuid) ?? false,
  };
}

function bind(address: string, port: number): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    socket.once('error', reject);
    socket.bind(port, address, () => {
      socket.setBroadcast(true);
      resolve(socket);
    });
  });
}

async function main(): Promise<void> {
  // Broadcasts (OFFERs) land on 0.0.0.0:68; unicast to our address on the bound one, which also sends.
  const any = await bind('0.0.0.0', 68);
  const own = await bind(args.address, 68);
  const seen: ReturnType<typeof summary>[] = [];
  const onMessage = (msg: Buffer, rinfo: dgram.RemoteInfo) => {
    try {
      const packet = decode(msg);
      if (packet.op !== 2 || packet.xid !== xid) return;
      const line = summary(packet, `${rinfo.address}:${rinfo.port}`);
      seen.push(line);
      process.stdout.write(`${JSON.stringify(line)}\n`);
    } catch {
      // Not for us.
    }
  };
  any.on('message', onMessage);
  own.on('message', onMessage);
  own.send(encode(pxeRequest(1, '0.0.0.0')), 67, '255.255.255.255');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  if (args.bootServer) {
    // PXE 2.1 §2.2.6: the boot server request goes to port 4011 with the client's address.
    const bootItem = { code: OPT.VENDOR_SPECIFIC, data: Buffer.from([71, 4, 0, 0, 0, 0, 255]) };
    own.send(encode(pxeRequest(3, args.address, [bootItem])), 4011, args.bootServer);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  any.close();
  own.close();
  process.stdout.write(`${JSON.stringify({ done: true, replies: seen.length })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`pxe-client: ${String(err)}\n`);
  process.exit(1);
});
