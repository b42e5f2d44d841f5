import { BlockList } from 'node:net';
import { ipFamily, parseSubnet, unmapIpv4, type Subnet } from '../network/ip-math.js';

/*
 * The allowed client subnets of an export: CIDR text in, a matcher out.
 * Parsing reuses the one CIDR module (network/ip-math.ts: strict literals,
 * host bits must be zero); matching uses node:net's BlockList, which is
 * built once per export and answers without allocating per request.
 */

/** A subnet entry as typed, parsed: a bare address is a /32 (IPv4) or /128 (IPv6) host. Throws Error with a readable reason. */
export function parseClientSubnet(text: string): Subnet {
  const trimmed = text.trim();
  if (trimmed.includes('/')) return parseSubnet(trimmed);
  const family = ipFamily(trimmed);
  if (!family) throw new Error(`"${text}" is neither a subnet in CIDR notation (192.168.50.0/24, fd00::/64) nor an IP address`);
  return parseSubnet(`${trimmed}/${family === 'ipv4' ? 32 : 128}`);
}

/** The problem with each entry that does not parse, by index (empty when all parse). */
export function clientSubnetProblems(entries: readonly string[]): { index: number; message: string }[] {
  const problems: { index: number; message: string }[] = [];
  for (const [index, entry] of entries.entries()) {
    try {
      parseClientSubnet(entry);
    } catch (error) {
      problems.push({ index, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return problems;
}

/** Client addresses whose answer a ClientSubnets keeps. */
const MAX_KEPT = 4096;

/** Whether a client address is inside any of a list of subnets. */
export class ClientSubnets {
  readonly subnets: readonly Subnet[];
  private readonly blocks = new BlockList();
  /**
   * Answers by address: every NFS call checks its client, and BlockList.check
   * builds a SocketAddress each time (a few µs). The list never changes, so a
   * kept answer is the answer; the map starts over past MAX_KEPT addresses.
   */
  private readonly answers = new Map<string, boolean>();

  /** Throws on the first entry that does not parse (validate with clientSubnetProblems first). */
  constructor(entries: readonly string[]) {
    this.subnets = entries.map(parseClientSubnet);
    for (const subnet of this.subnets) this.blocks.addSubnet(subnet.network, subnet.prefix, subnet.family);
  }

  /** Nobody is allowed (an empty list). */
  get empty(): boolean {
    return this.subnets.length === 0;
  }

  /**
   * Whether `address` (IPv4 dotted or IPv6 text, as a socket reports it) is
   * allowed. A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d
   * (RFC 4291 §2.5.5.2): it is judged as the IPv4 address it stands for, so
   * 192.168.50.0/24 allows it and an IPv6 rule never does by accident.
   */
  allows(address: string): boolean {
    const kept = this.answers.get(address);
    if (kept !== undefined) return kept;
    const answer = this.judge(address);
    if (this.answers.size >= MAX_KEPT) this.answers.clear();
    this.answers.set(address, answer);
    return answer;
  }

  private judge(address: string): boolean {
    // A link-local IPv6 peer may carry its zone ("fe80::1%eth0"); the subnet test is on the address.
    const zone = address.indexOf('%');
    const plain = unmapIpv4((zone >= 0 ? address.slice(0, zone) : address).trim());
    const family = ipFamily(plain);
    if (!family) return false;
    return this.blocks.check(plain, family);
  }
}
