import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { describeListenError } from '../../services/listen-error.js';
import type { ForeignDhcpServer } from '../dhcp-contract.js';
import { decode, encode } from './dhcp-codec.js';
import { neighbourMac } from './neighbour-mac.js';
import { probeDiscover, probeMac, readForeignOffer } from './rogue-probe-packet.js';

/** Client and server ports of DHCP (RFC 2131 §4.1). */
const CLIENT_PORT = 68;
const SERVER_PORT = 67;

/** The interface a probe goes out of: its name, our IPv4 address on it, its MAC (for the probe's chaddr). */
export interface ProbeTarget {
  interfaceName: string;
  address: string;
  mac: string | null;
}

export interface ProbeOptions {
  timeoutMs: number;
  /** Every IPv4 address of this machine: OFFERs from them are our own server's. */
  ownAddresses: ReadonlySet<string>;
  /** The MAC of a foreign server's address, when known (default: the kernel's neighbour table). */
  lookupMac?: (ip: string) => string | null;
}

/** Runs one probe of one interface; rejects only when its sockets cannot be opened (the message says why). */
export type DhcpProber = (target: ProbeTarget, options: ProbeOptions) => Promise<ForeignDhcpServer[]>;

/**
 * Sends a probe DHCPDISCOVER out of one interface and collects the foreign
 * OFFERs that answer it within `timeoutMs`.
 *
 * Two sockets, both with SO_REUSEADDR so several probes (and a DHCP client on
 * the machine that allows it) can share port 68: one bound to `<address>:68`
 * sends — Linux sends a limited broadcast from a socket bound to an interface
 * address out of that interface — and one bound to `0.0.0.0:68` receives the
 * broadcast OFFERs (a socket bound to an address never sees 255.255.255.255).
 * The OFFERs of other interfaces' segments, or of other probes, differ in xid
 * and chaddr and are ignored. The DISCOVER is sent twice (at the start and
 * halfway) so one lost packet does not hide a server.
 */
export const probeInterface: DhcpProber = async (target, options) => {
  const xid = randomInt(1, 0xffff_ffff);
  const mac = probeMac(target.interfaceName, target.mac);
  const found = new Map<string, ForeignDhcpServer>();
  const onMessage = (msg: Buffer, rinfo: dgram.RemoteInfo) => {
    let offer: ForeignDhcpServer | null = null;
    try {
      offer = readForeignOffer(decode(msg), rinfo.address, { xid, mac }, options.ownAddresses);
    } catch {
      return; // Not a DHCP packet we can read: not an answer to us.
    }
    if (offer && !found.has(offer.server_id)) found.set(offer.server_id, offer);
  };
  const listener = await open('0.0.0.0', onMessage);
  let sender: dgram.Socket;
  try {
    sender = await open(target.address, onMessage);
  } catch (err) {
    listener.close();
    throw err;
  }
  try {
    const bytes = encode(probeDiscover(xid, mac));
    const send = () => sender.send(bytes, SERVER_PORT, '255.255.255.255', () => undefined);
    send();
    await sleep(options.timeoutMs / 2);
    send();
    await sleep(options.timeoutMs / 2);
  } finally {
    sender.close();
    listener.close();
  }
  const lookup = options.lookupMac ?? neighbourMac;
  return [...found.values()].map((server) => ({ ...server, mac: lookup(server.source_ip) }));
};

function open(address: string, onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo) => void): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    const onError = (err: Error) => {
      socket.close();
      reject(new Error(`the rogue-DHCP probe cannot ${describeListenError(err, 'udp', address, CLIENT_PORT)}`, { cause: err }));
    };
    socket.once('error', onError);
    socket.bind({ address, port: CLIENT_PORT }, () => {
      socket.off('error', onError);
      socket.setBroadcast(true);
      // A send error (the interface went down) only means no answer: the probe ends at its timeout.
      socket.on('error', () => undefined);
      socket.on('message', onMessage);
      resolve(socket);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
