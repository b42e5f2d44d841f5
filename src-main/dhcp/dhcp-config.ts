import { Type, type Static } from 'typebox';
import type { FieldError } from '../core/errors.js';
import { intToIpv4, isHostIn, parseIpv4, parseIpv4Subnet, type Ipv4Subnet } from '../network/ip-math.js';
import { ACCESS_MODES } from './access-policy.js';
import { CUSTOM_OPTION_TYPES, customOptionProblem } from './custom-options.js';

/**
 * The DHCP settings (`GET/PUT /services/dhcp`): the mode per interface, the
 * subnets with their ranges and options, and the server-wide policy. One
 * property map builds the stored value, the response and the PUT body.
 */

export const DHCP_MODES = ['server', 'proxy', 'off'] as const;
export type DhcpMode = (typeof DHCP_MODES)[number];

const Ip = Type.String({ minLength: 7, maxLength: 15, description: 'IPv4 address' });

export const DhcpInterfaceSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, description: 'Network interface name, e.g. eth1' }),
    mode: Type.Enum([...DHCP_MODES], {
      description: '`server`: addresses and boot information; `proxy`: boot information only, beside another DHCP server; `off`',
    }),
  },
  { additionalProperties: false },
);

export const CustomOptionSchema = Type.Object(
  {
    code: Type.Integer({ minimum: 1, maximum: 254, description: 'DHCP option code (RFC 2132 and later)' }),
    type: Type.Enum([...CUSTOM_OPTION_TYPES], { description: 'How `value` is encoded' }),
    value: Type.Union([Type.String({ maxLength: 1024 }), Type.Integer(), Type.Boolean(), Type.Array(Ip, { maxItems: 63 })], {
      description: 'ip: "a.b.c.d"; ips: ["a.b.c.d",…]; string; uint8/16/32: integer; bool: true/false; hex: "0a1b…" (colons allowed)',
    }),
  },
  { additionalProperties: false },
);

export const RangeSchema = Type.Object(
  {
    start: Ip,
    end: Ip,
  },
  { additionalProperties: false },
);

export const SubnetSchema = Type.Object(
  {
    subnet: Type.String({ minLength: 9, maxLength: 18, description: 'IPv4 CIDR, e.g. 192.168.50.0/24' }),
    ranges: Type.Array(RangeSchema, { maxItems: 64, description: 'Dynamic pools (inclusive); none means reservations only' }),
    lease_time_seconds: Type.Union([Type.Integer({ minimum: 10, maximum: 31_536_000 }), Type.Null()], {
      description: 'Lease time in this subnet; null uses default_lease_time_seconds',
    }),
    router: Type.Union([Ip, Type.Null()], { description: 'Option 3; null sends none' }),
    dns_servers: Type.Union([Type.Array(Ip, { maxItems: 8 }), Type.Null()], {
      description: 'Option 6; null: our address on this subnet while the DNS service runs, else none',
    }),
    domain_name: Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()], {
      description: 'Option 15; null: the DNS service\'s local domain when it is known',
    }),
    ntp_servers: Type.Array(Ip, { maxItems: 8, description: 'Option 42' }),
    options: Type.Array(CustomOptionSchema, { maxItems: 64, description: 'Further options; they override built-in ones of the same code' }),
  },
  { additionalProperties: false },
);

const DhcpSettingsFields = {
  interfaces: Type.Array(DhcpInterfaceSchema, {
    maxItems: 64,
    description: 'Mode per interface; interfaces not listed are off',
  }),
  subnets: Type.Array(SubnetSchema, { maxItems: 256 }),
  default_lease_time_seconds: Type.Integer({ minimum: 10, maximum: 31_536_000, description: 'Lease time where a subnet sets none' }),
  authoritative: Type.Boolean({
    description: 'NAK requests for addresses that are wrong for the client\'s network or unknown to us (RFC 2131 §4.3.2); false stays silent',
  }),
  ping_check: Type.Boolean({ description: 'Ping an address before offering it; skip it when something answers' }),
  decline_quarantine_seconds: Type.Integer({
    minimum: 0,
    maximum: 2_592_000,
    description: 'How long an address a client DECLINEd stays out of the pool',
  }),
  access_mode: Type.Enum([...ACCESS_MODES], {
    description: '`open`: everyone except the blacklist; `whitelist`: only whitelisted MACs get DHCP, proxyDHCP and boot files',
  }),
};

export const DhcpSettingsSchema = Type.Object(DhcpSettingsFields, { additionalProperties: false });
export const DhcpSettingsPatch = Type.Object(
  Object.fromEntries(Object.entries(DhcpSettingsFields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof typeof DhcpSettingsFields]: ReturnType<typeof Type.Optional<(typeof DhcpSettingsFields)[K]>>;
  },
  { additionalProperties: false },
);

export type DhcpSettingsValue = Static<typeof DhcpSettingsSchema>;
export type DhcpSettingsPatchValue = Static<typeof DhcpSettingsPatch>;
export type DhcpSubnetConfig = Static<typeof SubnetSchema>;
export type DhcpRangeConfig = Static<typeof RangeSchema>;
export type CustomOptionConfig = Static<typeof CustomOptionSchema>;
export type DhcpInterfaceConfig = Static<typeof DhcpInterfaceSchema>;

export function dhcpDefaults(): DhcpSettingsValue {
  return {
    interfaces: [],
    subnets: [],
    default_lease_time_seconds: 3600,
    authoritative: true,
    ping_check: false,
    decline_quarantine_seconds: 86_400,
    access_mode: 'open',
  };
}

/**
 * Everything the JSON schema cannot say: addresses parse, ranges lie inside
 * their subnet and overlap nothing, subnets do not overlap, none of this
 * machine's own addresses is inside a range, option values fit their type.
 */
export function validateDhcpSettings(value: DhcpSettingsValue, ownAddresses: readonly string[], field: (path: string) => string): FieldError[] {
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
    if (subnet.router !== null) addressLists.push(['router', [subnet.router]]);
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
