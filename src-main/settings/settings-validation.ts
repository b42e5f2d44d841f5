import type { FieldError } from '../core/errors.js';
import { ipFamily, isHostAddressIn, normalizeIp, parseSubnet } from '../network/ip-math.js';
import type { GeneralSettings, InterfacesSettings, NetbootSettings, SettingsSectionName, SettingsValues } from './settings-contract.js';

/**
 * Rules the JSON schemas cannot say (DNS labels, CIDR, an address inside its
 * subnet, fields that depend on each other). Each checker takes a whole
 * section value (current merged with the patch), returns it normalised and the
 * problems found; `field` turns a field path into the name the caller used.
 */
export interface SectionCheck<T> {
  value: T;
  errors: FieldError[];
}

type FieldNamer = (path: string) => string;

/** RFC 1123 §2.1 host name label: letters, digits, inner hyphens, at most 63 characters. */
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
/** Interface names are free text on Windows ("Ethernet 2"); control characters and "/" never occur. */
const NIC_NAME = /^[^\u0000-\u001f\u007f/]+$/;

export function checkGeneral(value: GeneralSettings, field: FieldNamer): SectionCheck<GeneralSettings> {
  const errors: FieldError[] = [];
  if (!DNS_LABEL.test(value.server_name)) {
    errors.push({ field: field('server_name'), message: 'must be one DNS label: letters, digits and inner hyphens, at most 63 characters' });
  }
  if (value.update_feed_url !== null) {
    const problem = feedUrlProblem(value.update_feed_url);
    if (problem) errors.push({ field: field('update_feed_url'), message: problem });
  }
  const hosts = value.allowed_hosts.map((host) => host.toLowerCase());
  hosts.forEach((host, index) => {
    if (!isHostName(host) && ipFamily(host) === null) {
      errors.push({ field: field(`allowed_hosts.${index}`), message: `"${host}" is neither a host name nor an IP address (give names without port or brackets)` });
    }
  });
  const duplicate = hosts.findIndex((host, index) => hosts.indexOf(host) !== index);
  if (duplicate >= 0) errors.push({ field: field(`allowed_hosts.${duplicate}`), message: `"${hosts[duplicate]}" is listed twice` });
  return { value: { ...value, allowed_hosts: hosts.map((host) => normalizeIp(host) ?? host) }, errors };
}

export function checkInterfaces(value: InterfacesSettings, field: FieldNamer): SectionCheck<InterfacesSettings> {
  const errors: FieldError[] = [];
  if (value.served !== 'auto') {
    value.served.forEach((name, index) => {
      if (!NIC_NAME.test(name)) errors.push({ field: field(`served.${index}`), message: 'is not an interface name' });
    });
  }
  const seen = new Map<string, number>();
  const overrides = value.server_addresses.map((override, index) => {
    let subnet;
    try {
      subnet = parseSubnet(override.subnet);
    } catch (err) {
      errors.push({ field: field(`server_addresses.${index}.subnet`), message: (err as Error).message });
      return override;
    }
    const earlier = seen.get(subnet.cidr);
    if (earlier !== undefined) {
      errors.push({ field: field(`server_addresses.${index}.subnet`), message: `${subnet.cidr} already has an override (entry ${earlier})` });
    }
    seen.set(subnet.cidr, index);
    const address = normalizeIp(override.address);
    if (address === null) {
      errors.push({ field: field(`server_addresses.${index}.address`), message: `"${override.address}" is not an IPv4 or IPv6 address` });
      return override;
    }
    if (!isHostAddressIn(subnet, address)) {
      errors.push({ field: field(`server_addresses.${index}.address`), message: `${address} is not a host address inside ${subnet.cidr}` });
    }
    return { subnet: subnet.cidr, address };
  });
  return { value: { ...value, server_addresses: overrides }, errors };
}

export function checkNetboot(value: NetbootSettings, field: FieldNamer): SectionCheck<NetbootSettings> {
  const errors: FieldError[] = [];
  if (value.default_action === 'profile' && value.default_profile_id === null) {
    errors.push({ field: field('default_profile_id'), message: 'is required when default_action is "profile"' });
  }
  // Group names match case-insensitively (the host filters fold case): "Lab" and "lab" are one group and get one loader.
  const seen = new Map<string, string>();
  for (const group of Object.keys(value.boot_loaders.groups)) {
    const first = seen.get(group.toLowerCase());
    if (first !== undefined) errors.push({ field: field('boot_loaders.groups'), message: `"${group}" and "${first}" are the same group (names match case-insensitively)` });
    else seen.set(group.toLowerCase(), group);
  }
  return { value, errors };
}

export const SECTION_CHECKS: { [K in SettingsSectionName]: (value: SettingsValues[K], field: FieldNamer) => SectionCheck<SettingsValues[K]> } = {
  general: checkGeneral,
  interfaces: checkInterfaces,
  netboot: checkNetboot,
  logging: (value) => ({ value, errors: [] }),
};

function feedUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  // Settings are readable by viewers; a password in the URL would leak to them.
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  return null;
}

/**
 * RFC 1123 host name: dot-separated labels, at most 253 characters, no
 * trailing dot; the last label is not all digits (RFC 3696 §2), so a
 * mistyped IPv4 address such as 10.0.0.300 is not taken for a name.
 */
function isHostName(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.split('.');
  return labels.every((label) => DNS_LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1] ?? '');
}
