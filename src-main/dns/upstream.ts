import { ipFamily, normalizeIp } from '../network/ip-math.js';

/** One upstream DNS server queries outside local data are forwarded to. */
export interface UpstreamServer {
  host: string;
  port: number;
  family: 4 | 6;
  /** `host:port`, `[v6]:port` for IPv6: how logs and metrics name it. */
  label: string;
}

export const DEFAULT_UPSTREAM_PORT = 53;
export const MAX_UPSTREAMS = 16;

export interface UpstreamParse {
  servers: UpstreamServer[];
  /** One message per bad entry, each naming it. */
  errors: string[];
}

/**
 * Parses the `upstream` setting: `<host>:<port>` entries separated by commas
 * or whitespace, the port optional (53), IPv6 as `[addr]:port` or a bare
 * address. Hosts must be IP literals: a host name would need DNS to reach DNS.
 */
export function parseUpstreams(text: string): UpstreamParse {
  const entries = text.split(/[\s,]+/).filter((entry) => entry.length > 0);
  const servers: UpstreamServer[] = [];
  const errors: string[] = [];
  if (entries.length > MAX_UPSTREAMS) errors.push(`has ${entries.length} entries; at most ${MAX_UPSTREAMS} are allowed`);
  for (const entry of entries) {
    const parsed = parseEntry(entry);
    if (typeof parsed === 'string') errors.push(`upstream entry "${entry}": ${parsed}`);
    else servers.push(parsed);
  }
  return { servers, errors };
}

function parseEntry(entry: string): UpstreamServer | string {
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
    if (ipFamily(host) !== 'ipv6') return `"${host}" inside brackets is not an IPv6 address`;
  } else if ((entry.match(/:/g) ?? []).length > 1) {
    host = entry; // A bare IPv6 address; a port needs the bracket form.
    if (ipFamily(host) !== 'ipv6') return 'is not an IPv6 address (write IPv6 with a port as [addr]:port)';
  } else {
    const colon = entry.indexOf(':');
    host = colon < 0 ? entry : entry.slice(0, colon);
    portText = colon < 0 ? undefined : entry.slice(colon + 1);
    if (ipFamily(host) !== 'ipv4') return `"${host}" is not an IP address (host names are not allowed: DNS would be needed to reach DNS)`;
  }
  let port = DEFAULT_UPSTREAM_PORT;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      return `port "${portText}" must be an integer from 1 to 65535`;
    }
    port = Number(portText);
  }
  const normalized = normalizeIp(host) ?? host;
  const family = ipFamily(normalized) === 'ipv6' ? 6 : 4;
  return { host: normalized, port, family, label: family === 6 ? `[${normalized}]:${port}` : `${normalized}:${port}` };
}
