import { validationError, type FieldError } from '../core/errors.js';
import { normalizeMac, unicastMacProblem } from '../core/mac.js';
import { printableProblem } from '../core/printable-text.js';
import { ipFamily, normalizeIp } from '../network/ip-math.js';
import { notOneMachineProblem } from '../network/special-addresses.js';
import type { NewRow } from '../store/collection.js';
import { GROUP_PATTERN, TAG_PATTERN, type Host, type HostInput } from './hosts-contract.js';

/** RFC 1123 §2.1 label: letters, digits, inner hyphens, at most 63 characters. */
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
export { ARCH_PATTERN, GROUP_PATTERN, TAG_PATTERN } from './hosts-contract.js';

const GROUP = new RegExp(GROUP_PATTERN);
const TAG = new RegExp(TAG_PATTERN);

/**
 * Checks the rules JSON Schema cannot say and returns the input in canonical
 * form (MAC lowercase-colon, hostname lowercase, IP canonical). Throws one
 * VALIDATION_FAILED listing every bad field.
 */
export function normalizeHostInput(input: HostInput): HostInput {
  const errors: FieldError[] = [];
  const out: HostInput = { ...input };
  if (input.mac !== undefined) {
    const mac = normalizeMac(input.mac);
    if (mac === null) errors.push({ field: 'body.mac', message: `"${input.mac}" is not a MAC address` });
    else {
      const unicast = unicastMacProblem(mac);
      if (unicast) errors.push({ field: 'body.mac', message: unicast });
      else out.mac = mac;
    }
  }
  if (input.hostname !== undefined && input.hostname !== null) {
    const hostname = input.hostname.trim().toLowerCase().replace(/\.$/, '');
    if (!isHostName(hostname)) {
      errors.push({ field: 'body.hostname', message: 'must be a host name (RFC 1123): dot-separated labels of letters, digits and inner hyphens' });
    } else out.hostname = hostname;
  }
  if (input.ip !== undefined && input.ip !== null) {
    const ip = normalizeIp(input.ip.trim());
    if (ip === null || ipFamily(ip) !== 'ipv4') errors.push({ field: 'body.ip', message: `"${input.ip}" is not an IPv4 address` });
    else if (notOneMachineProblem(ip)) errors.push({ field: 'body.ip', message: notOneMachineProblem(ip)! });
    else if (ip.startsWith('127.')) errors.push({ field: 'body.ip', message: `${ip} cannot be a host's address` });
    else out.ip = ip;
  }
  if (input.group !== undefined && input.group !== null) {
    const group = input.group.trim();
    if (!GROUP.test(group)) errors.push({ field: 'body.group', message: 'must be 1-64 characters: letters, digits, space . _ -, starting with a letter or digit' });
    else out.group = group;
  }
  if (input.description !== undefined) {
    const problem = printableProblem(input.description);
    if (problem) errors.push({ field: 'body.description', message: problem });
  }
  if (input.tags !== undefined) {
    const seen = new Set<string>();
    input.tags.forEach((tag, index) => {
      if (!TAG.test(tag)) errors.push({ field: `body.tags.${index}`, message: 'must be 1-64 characters: letters, digits . _ : -' });
      else if (seen.has(tag.toLowerCase())) errors.push({ field: `body.tags.${index}`, message: `"${tag}" is listed twice` });
      seen.add(tag.toLowerCase());
    });
  }
  if (errors.length > 0) throw validationError(errors);
  return out;
}

/** RFC 1123 host name; the last label is not all digits (RFC 3696 §2), so a mistyped address is not a name. */
function isHostName(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  const labels = text.split('.');
  return labels.every((label) => DNS_LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1] ?? '');
}

/** The stored row of a new host from normalized input: what the input leaves out gets its default. */
export function newHostRow(value: HostInput & { mac: string }): NewRow<Host> {
  return {
    mac: value.mac,
    hostname: value.hostname ?? null,
    ip: value.ip ?? null,
    profile_id: value.profile_id ?? null,
    group: value.group ?? null,
    tags: value.tags ?? [],
    description: value.description ?? '',
    arch: value.arch ?? null,
    platform: null,
    enabled: value.enabled ?? true,
    boot_loader: value.boot_loader ?? null,
    discovered: value.discovered ?? false,
    last_boot_at: null,
    last_seen_ip: null,
  };
}
