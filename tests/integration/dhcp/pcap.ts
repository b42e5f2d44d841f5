import { readFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { decode, type DhcpPacket } from '../../../src-main/dhcp/server/dhcp-codec.js';
import { waitForOutput, type Netns } from '../../helpers/netns.js';

/** One UDP datagram from a capture, with its DHCP payload decoded when it has one. */
export interface CapturedDhcp {
  /** Capture time, ms since the epoch. */
  time: number;
  source: string;
  sourcePort: number;
  destination: string;
  destinationPort: number;
  packet: DhcpPacket;
}

/**
 * Reads the DHCP messages out of a classic pcap file (Ethernet or Linux
 * cooked captures, IPv4/UDP); anything else, and truncated records, is skipped.
 */
export async function readDhcpPcap(file: string): Promise<CapturedDhcp[]> {
  const buf = await readFile(file);
  if (buf.length < 24) return [];
  const little = buf.readUInt32LE(0) === 0xa1b2c3d4;
  const u32 = (at: number) => (little ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const linkType = u32(20);
  const linkHeader = linkType === 1 ? 14 : linkType === 113 ? 16 : -1;
  if (linkHeader < 0) throw new Error(`pcap link type ${linkType} not supported`);
  const out: CapturedDhcp[] = [];
  let at = 24;
  while (at + 16 <= buf.length) {
    const time = u32(at) * 1000 + u32(at + 4) / 1000;
    const included = u32(at + 8);
    const frame = buf.subarray(at + 16, at + 16 + included);
    at += 16 + included;
    if (frame.length < included) break;
    const ip = linkHeader;
    if (frame.length < ip + 28 || frame[ip]! >> 4 !== 4 || frame[ip + 9] !== 17) continue;
    const udp = ip + (frame[ip]! & 15) * 4;
    const length = frame.readUInt16BE(udp + 4);
    const payload = frame.subarray(udp + 8, udp + length);
    try {
      out.push({
        time,
        source: frame.subarray(ip + 12, ip + 16).join('.'),
        destination: frame.subarray(ip + 16, ip + 20).join('.'),
        sourcePort: frame.readUInt16BE(udp),
        destinationPort: frame.readUInt16BE(udp + 2),
        packet: decode(Buffer.from(payload)),
      });
    } catch {
      // Not DHCP, or cut short by the snap length.
    }
  }
  return out;
}

/** tcpdump writing DHCP traffic of `ifName` in `ns` to `file`; resolves once it listens. Stop it with SIGINT. */
export async function startCapture(ns: Netns, ifName: string, file: string): Promise<ChildProcess> {
  const child = ns.spawn('tcpdump', ['-Z', 'root', '--immediate-mode', '-i', ifName, '-U', '-n', '-s', '0', '-B', '16384', '-w', file, 'udp and (port 67 or port 68)']);
  await waitForOutput(child, /listening on/);
  return child;
}

export async function stopCapture(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}
