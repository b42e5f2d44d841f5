import type { FieldError } from '../core/errors.js';
import { intToIpv4, isHostIn, parseIpv4, parseIpv4Subnet, type Ipv4Subnet } from '../network/ip-math.js';
import { customOptionProblem } from './dhcp-options.js';
import { DEFAULT_PROBE_TIMEOUT_MS, ROUTER_NONE, type DhcpSettings } from './dhcp-contract.js';

/*
 * The DHCP settings' defaults and the checks the JSON schema cannot make; the
 * schemas themselves are the contract's (dhcp-contract.ts).
 */

export function dhcpDefaults(): DhcpSettings {
  return {
    interfaces: [],
    subnets: [],
    default_lease_time_seconds: 3600,
    authoritative: true,
    ping_check: false,
    decline_quarantine_seconds: 86_400,
    access_mode: 'open',
    rogue_guard: true,
    rogue_probe_timeout_ms: DEFAULT_PROBE_TIMEOUT_MS,
    force: false,
    ipv6_ra: 'auto',
  };
}

/**
 * Everything the JSON schema cannot say: addresses parse, ranges lie inside
 * their subnet and overlap nothing, subnets do not overlap, none of this
 * machine's own addresses is inside a range, option values fit their type.
 */
export function validateDhcpSettings(value: DhcpSettings, ownAddresses: readonly string[], field: (path: string) => string): FieldError[] {
  const errors: FieldError[] = [];
  const push = (path: string, message: string) => errors.push({ field: field(path), message });

  const names = new Set<string>();
  value.interfaces.forEach((iface, i) => {
    if (names.has(iface.name)) push(`interfaces[${i}].name`, `interface ${iface.name} is listed twice`);
    names.add(iface.name);
  });

  const own = ownAddresses.map((text) => parseIpv4(text)).filter((n): n is number => n !== null);
  const parsedSubnets: { subnet: Ipv4Subnet; index: number }[] = [];
  const allRanges: { start: number; end: number; at: string }[] = [];
  value.subnets.forEach((subnet, s) => {
    const at = `subnets[${s}]`;
    const parsed = parseIpv4Subnet(subnet.subnet);
    if (!parsed) {
      push(`${at}.subnet`, `"${subnet.subnet}" is not an IPv4 subnet in CIDR notation with zero host bits`);
      return;
    }
    if (parsed.prefix > 30) push(`${at}.subnet`, 'prefix must be /30 or shorter to hold clients');
    for (const other of parsedSubnets) {
      if (overlaps(parsed.network, parsed.broadcast, other.subnet.network, other.subnet.broadcast)) {
        push(`${at}.subnet`, `overlaps subnets[${other.index}] (${other.subnet.cidr})`);
      }
    }
    parsedSubnets.push({ subnet: parsed, index: s });
    subnet.ranges.forEach((range, r) => {
      const rat = `${at}.ranges[${r}]`;
      const start = parseIpv4(range.start);
      const end = parseIpv4(range.end);
      if (start === null) push(`${rat}.start`, `"${range.start}" is not an IPv4 address`);
      if (end === null) push(`${rat}.end`, `"${range.end}" is not an IPv4 address`);
      if (start === null || end === null) return;
      if (!isHostIn(parsed, start)) push(`${rat}.start`, `${range.start} is not a host address of ${parsed.cidr}`);
      if (!isHostIn(parsed, end)) push(`${rat}.end`, `${range.end} is not a host address of ${parsed.cidr}`);
      if (start > end) push(`${rat}`, `start ${range.start} is after end ${range.end}`);
      for (const other of allRanges) {
        if (overlaps(start, end, other.start, other.end)) push(rat, `overlaps ${other.at} (${intToIpv4(other.start)}-${intToIpv4(other.end)})`);
      }
      for (const address of own) {
        if (address >= start && address <= end) push(rat, `contains this server's own address ${intToIpv4(address)}`);
      }
      allRanges.push({ start, end, at: rat });
    });
    const addressLists: [string, readonly string[]][] = [
      ['ntp_servers', subnet.ntp_servers],
      ['dns_servers', subnet.dns_servers ?? []],
    ];
    if (subnet.router !== null && subnet.router !== ROUTER_NONE) addressLists.push(['router', [subnet.router]]);
    for (const [key, list] of addressLists) {
      list.forEach((address, i) => {
        if (parseIpv4(address) === null) push(key === 'router' ? `${at}.router` : `${at}.${key}[${i}]`, `"${address}" is not an IPv4 address`);
      });
    }
    if (subnet.domain_name !== null && !/^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/.test(subnet.domain_name)) {
      push(`${at}.domain_name`, `"${subnet.domain_name}" is not a domain name`);
    }
    const codes = new Set<number>();
    subnet.options.forEach((option, o) => {
      if (codes.has(option.code)) push(`${at}.options[${o}].code`, `option ${option.code} is set twice`);
      codes.add(option.code);
      const problem = customOptionProblem(option);
      if (problem) push(`${at}.options[${o}].${problem.field}`, problem.message);
    });
  });
  return errors;
}

function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart <= bEnd && bStart <= aEnd;
}
