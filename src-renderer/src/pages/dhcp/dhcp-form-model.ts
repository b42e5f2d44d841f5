import {
  CustomOptionSchema,
  ROUTER_NONE,
  SubnetSchema,
  type CustomOption as DhcpOption,
  type CustomOptionType as DhcpOptionType,
  type DhcpMode,
  type DhcpSettings,
  type DhcpSubnet,
  type Ipv6RaMode,
} from '@contracts/dhcp';
import { Value } from 'typebox/value';
import { isIPv4, isNetworkCidr } from '../../validators.js';

/** A custom option as the form edits it: the value always as text, typed on save. */
export interface OptionForm {
  code: number | string;
  type: DhcpOptionType;
  value: string;
}

export interface SubnetForm {
  subnet: string;
  ranges: { start: string; end: string }[];
  lease_time_seconds: number | string;
  /** Empty = automatic (our address on the subnet); "none" = no gateway. */
  router: string;
  /** Comma-separated; empty = automatic (our address while DNS runs); "none" = no DNS servers. */
  dns_servers: string;
  domain_name: string;
  ntp_servers: string;
  options: OptionForm[];
}

export interface DhcpForm {
  interfaces: { name: string; mode: DhcpMode }[];
  subnets: SubnetForm[];
  default_lease_time_seconds: number | string;
  authoritative: boolean;
  ping_check: boolean;
  decline_quarantine_seconds: number | string;
  rogue_guard: boolean;
  rogue_probe_timeout_ms: number | string;
  force: boolean;
  ipv6_ra: Ipv6RaMode;
}

const list = (text: string) => text.split(/[\s,]+/).filter((item) => item !== '');
/** What the router and DNS fields take for "send none" (empty means the automatic default). */
const NONE = ROUTER_NONE;
const isNone = (text: string) => text.trim().toLowerCase() === NONE;

export function optionToForm(option: DhcpOption): OptionForm {
  const value = Array.isArray(option.value) ? option.value.join(', ') : String(option.value);
  return { code: option.code, type: option.type, value };
}

/** A form option as the API wants it: ips as a list, integers as numbers, bool as a boolean. */
export function optionFromForm(option: OptionForm): DhcpOption {
  const code = Number(option.code);
  switch (option.type) {
    case 'ips':
      return { code, type: option.type, value: list(option.value) };
    case 'uint8':
    case 'uint16':
    case 'uint32':
      return { code, type: option.type, value: Number(option.value) };
    case 'bool':
      return { code, type: option.type, value: option.value === 'true' };
    default:
      return { code, type: option.type, value: option.value.trim() };
  }
}

const UINT_MAX: Partial<Record<DhcpOptionType, number>> = { uint8: 255, uint16: 65535, uint32: 4294967295 };

/** The client-side check of a custom option's value for its type. */
export function optionValueProblem(option: OptionForm): string | null {
  const value = option.value.trim();
  switch (option.type) {
    case 'ip':
      return isIPv4(value) ? null : 'An IPv4 address';
    case 'ips':
      return list(value).length > 0 && list(value).every(isIPv4) ? null : 'IPv4 addresses separated by commas';
    case 'uint8':
    case 'uint16':
    case 'uint32':
      return /^\d+$/.test(value) && Number(value) <= (UINT_MAX[option.type] ?? 0) ? null : `An integer 0–${UINT_MAX[option.type]}`;
    case 'bool':
      return value === 'true' || value === 'false' ? null : 'true or false';
    case 'hex':
      return /^([0-9A-Fa-f]{2})(:?[0-9A-Fa-f]{2})*$/.test(value) ? null : 'Hex bytes, e.g. 0a1b2c or 0a:1b:2c';
    default:
      return value.length <= 1024 ? null : 'At most 1024 characters';
  }
}

export function subnetToForm(subnet: DhcpSubnet): SubnetForm {
  return {
    subnet: subnet.subnet,
    ranges: subnet.ranges.map((range) => ({ ...range })),
    lease_time_seconds: subnet.lease_time_seconds ?? '',
    router: subnet.router ?? '',
    dns_servers: subnet.dns_servers === null ? '' : subnet.dns_servers.length === 0 ? NONE : subnet.dns_servers.join(', '),
    domain_name: subnet.domain_name ?? '',
    ntp_servers: subnet.ntp_servers.join(', '),
    options: subnet.options.map(optionToForm),
  };
}

export function subnetFromForm(subnet: SubnetForm): DhcpSubnet {
  return {
    subnet: subnet.subnet.trim(),
    ranges: subnet.ranges.map((range) => ({ start: range.start.trim(), end: range.end.trim() })),
    lease_time_seconds: subnet.lease_time_seconds === '' ? null : Number(subnet.lease_time_seconds),
    router: subnet.router.trim() === '' ? null : isNone(subnet.router) ? ROUTER_NONE : subnet.router.trim(),
    dns_servers: subnet.dns_servers.trim() === '' ? null : isNone(subnet.dns_servers) ? [] : list(subnet.dns_servers),
    domain_name: subnet.domain_name.trim() === '' ? null : subnet.domain_name.trim(),
    ntp_servers: list(subnet.ntp_servers),
    options: subnet.options.map(optionFromForm),
  };
}

/** The form for the settings, with a row for every interface this machine has (unlisted ones are off). */
export function settingsToForm(settings: DhcpSettings, detected: readonly string[]): DhcpForm {
  const modes = new Map(settings.interfaces.map((entry) => [entry.name, entry.mode]));
  const names = [...new Set([...detected, ...settings.interfaces.map((entry) => entry.name)])];
  return {
    interfaces: names.map((name) => ({ name, mode: modes.get(name) ?? 'off' })),
    subnets: settings.subnets.map(subnetToForm),
    default_lease_time_seconds: settings.default_lease_time_seconds,
    authoritative: settings.authoritative,
    ping_check: settings.ping_check,
    decline_quarantine_seconds: settings.decline_quarantine_seconds,
    rogue_guard: settings.rogue_guard,
    rogue_probe_timeout_ms: settings.rogue_probe_timeout_ms,
    force: settings.force,
    ipv6_ra: settings.ipv6_ra,
  };
}

/** The PUT body: everything but access_mode (the access page owns it); interfaces left off are not listed. */
export function settingsFromForm(form: DhcpForm): Omit<DhcpSettings, 'access_mode'> {
  return {
    interfaces: form.interfaces.filter((entry) => entry.mode !== 'off'),
    subnets: form.subnets.map(subnetFromForm),
    default_lease_time_seconds: Number(form.default_lease_time_seconds),
    authoritative: form.authoritative,
    ping_check: form.ping_check,
    decline_quarantine_seconds: Number(form.decline_quarantine_seconds),
    rogue_guard: form.rogue_guard,
    rogue_probe_timeout_ms: Number(form.rogue_probe_timeout_ms),
    force: form.force,
    ipv6_ra: form.ipv6_ra,
  };
}

const FORM_FIELDS: ReadonlySet<string> = new Set(['subnets', 'default_lease_time_seconds', 'authoritative', 'ping_check', 'decline_quarantine_seconds', 'rogue_guard', 'rogue_probe_timeout_ms', 'force', 'ipv6_ra']);

/** An API field path → the form field that shows it (list fields are one text input here). */
export function dhcpErrorPath(path: string): string | null {
  const listField = /^(subnets\.\d+\.(?:dns_servers|ntp_servers))(\.\d+)?$/.exec(path);
  if (listField) return listField[1]!;
  const optionValue = /^(subnets\.\d+\.options\.\d+\.value)(\.\d+)?$/.exec(path);
  if (optionValue) return optionValue[1]!;
  if (/^interfaces(\.\d+)?/.test(path)) return 'interfaces';
  const top = path.split('.')[0];
  return top !== undefined && FORM_FIELDS.has(top) ? path : null;
}

/** Client-side checks of one subnet: messages by form path. */
export function subnetProblems(subnet: SubnetForm, index: number): Record<string, string> {
  const problems: Record<string, string> = {};
  const at = (field: string) => `subnets.${index}.${field}`;
  if (!isNetworkCidr(subnet.subnet) || subnet.subnet.includes(':')) problems[at('subnet')] = 'An IPv4 subnet in CIDR form, host bits zero (192.168.50.0/24)';
  subnet.ranges.forEach((range, r) => {
    if (!isIPv4(range.start)) problems[at(`ranges.${r}.start`)] = 'An IPv4 address';
    if (!isIPv4(range.end)) problems[at(`ranges.${r}.end`)] = 'An IPv4 address';
  });
  if (subnet.router.trim() !== '' && !isNone(subnet.router) && !isIPv4(subnet.router)) problems[at('router')] = 'An IPv4 address, "none", or empty (our address)';
  if (subnet.dns_servers.trim() !== '' && !isNone(subnet.dns_servers) && !list(subnet.dns_servers).every(isIPv4)) problems[at('dns_servers')] = 'IPv4 addresses separated by commas, "none", or empty';
  if (subnet.ntp_servers.trim() !== '' && !list(subnet.ntp_servers).every(isIPv4)) problems[at('ntp_servers')] = 'IPv4 addresses separated by commas';
  const lease = subnet.lease_time_seconds;
  if (lease !== '' && !Value.Check(SubnetSchema.properties.lease_time_seconds, Number(lease))) problems[at('lease_time_seconds')] = '10–31536000 seconds, or empty';
  subnet.options.forEach((option, o) => {
    if (option.code === '' || !Value.Check(CustomOptionSchema.properties.code, Number(option.code))) problems[at(`options.${o}.code`)] = 'A code 1–254';
    const problem = optionValueProblem(option);
    if (problem) problems[at(`options.${o}.value`)] = problem;
  });
  return problems;
}
