import { parseIpv4 } from '../network/ip-math.js';
import type { CustomOption } from './dhcp-contract.js';

/**
 * The one DHCPv4 option table: code → name and value type, as data the codec
 * and the server read (RFC 2132; RFC 3004 user class; RFC 4578 PXE client
 * options 93/94/97; RFC 3046 relay agent information; RFC 3396 long options),
 * the codes the server owns, and the checks and wire bytes of the options an
 * operator sets (subnet and reservation `options`, types in dhcp-contract.ts).
 */

export type OptionValueType =
  | 'ip'
  | 'ips'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'int32'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'uint8s'
  | 'uint16s';

export interface OptionSpec {
  code: number;
  name: string;
  type: OptionValueType;
}

/** Option codes the server reads or writes by name. */
export const OPT = {
  PAD: 0,
  SUBNET_MASK: 1,
  ROUTER: 3,
  DNS_SERVERS: 6,
  HOSTNAME: 12,
  DOMAIN_NAME: 15,
  BROADCAST_ADDRESS: 28,
  NTP_SERVERS: 42,
  VENDOR_SPECIFIC: 43,
  REQUESTED_IP: 50,
  LEASE_TIME: 51,
  OVERLOAD: 52,
  MESSAGE_TYPE: 53,
  SERVER_ID: 54,
  PARAMETER_LIST: 55,
  MESSAGE: 56,
  MAX_MESSAGE_SIZE: 57,
  RENEWAL_TIME: 58,
  REBINDING_TIME: 59,
  VENDOR_CLASS: 60,
  CLIENT_ID: 61,
  TFTP_SERVER_NAME: 66,
  BOOTFILE_NAME: 67,
  USER_CLASS: 77,
  RELAY_AGENT_INFO: 82,
  CLIENT_ARCH: 93,
  CLIENT_NDI: 94,
  CLIENT_UUID: 97,
  /** iPXE's encapsulated options ("etherboot"): the client sends them, and reads a few in replies. */
  IPXE_ENCAP: 175,
  END: 255,
} as const;

/** DHCP message types (option 53, RFC 2132 §9.6). */
export const MSG = {
  DISCOVER: 1,
  OFFER: 2,
  REQUEST: 3,
  DECLINE: 4,
  ACK: 5,
  NAK: 6,
  RELEASE: 7,
  INFORM: 8,
} as const;

export type MessageTypeName = 'discover' | 'offer' | 'request' | 'decline' | 'ack' | 'nak' | 'release' | 'inform';

export const MESSAGE_TYPE_NAMES: Readonly<Record<number, MessageTypeName>> = {
  1: 'discover',
  2: 'offer',
  3: 'request',
  4: 'decline',
  5: 'ack',
  6: 'nak',
  7: 'release',
  8: 'inform',
};

const SPECS: readonly OptionSpec[] = [
  { code: 1, name: 'subnet_mask', type: 'ip' },
  { code: 2, name: 'time_offset', type: 'int32' },
  { code: 3, name: 'router', type: 'ips' },
  { code: 4, name: 'time_servers', type: 'ips' },
  { code: 6, name: 'dns_servers', type: 'ips' },
  { code: 7, name: 'log_servers', type: 'ips' },
  { code: 12, name: 'hostname', type: 'string' },
  { code: 13, name: 'boot_file_size', type: 'uint16' },
  { code: 15, name: 'domain_name', type: 'string' },
  { code: 17, name: 'root_path', type: 'string' },
  { code: 26, name: 'interface_mtu', type: 'uint16' },
  { code: 28, name: 'broadcast_address', type: 'ip' },
  { code: 33, name: 'static_routes', type: 'ips' },
  { code: 42, name: 'ntp_servers', type: 'ips' },
  { code: 43, name: 'vendor_specific', type: 'bytes' },
  { code: 44, name: 'netbios_name_servers', type: 'ips' },
  { code: 50, name: 'requested_ip', type: 'ip' },
  { code: 51, name: 'lease_time', type: 'uint32' },
  { code: 52, name: 'overload', type: 'uint8' },
  { code: 53, name: 'message_type', type: 'uint8' },
  { code: 54, name: 'server_id', type: 'ip' },
  { code: 55, name: 'parameter_list', type: 'uint8s' },
  { code: 56, name: 'message', type: 'string' },
  { code: 57, name: 'max_message_size', type: 'uint16' },
  { code: 58, name: 'renewal_time', type: 'uint32' },
  { code: 59, name: 'rebinding_time', type: 'uint32' },
  { code: 60, name: 'vendor_class', type: 'string' },
  { code: 61, name: 'client_id', type: 'bytes' },
  { code: 66, name: 'tftp_server_name', type: 'string' },
  { code: 67, name: 'bootfile_name', type: 'string' },
  { code: 77, name: 'user_class', type: 'bytes' },
  { code: 80, name: 'rapid_commit', type: 'bytes' },
  { code: 81, name: 'client_fqdn', type: 'bytes' },
  { code: 82, name: 'relay_agent_info', type: 'bytes' },
  { code: 93, name: 'client_arch', type: 'uint16s' },
  { code: 94, name: 'client_ndi', type: 'bytes' },
  { code: 97, name: 'client_uuid', type: 'bytes' },
  { code: 119, name: 'domain_search', type: 'bytes' },
  { code: 121, name: 'classless_static_routes', type: 'bytes' },
  { code: 150, name: 'tftp_server_addresses', type: 'ips' },
  { code: 175, name: 'etherboot', type: 'bytes' },
];

export const OPTION_TABLE: ReadonlyMap<number, OptionSpec> = new Map(SPECS.map((spec) => [spec.code, spec]));

export type OptionValue = string | string[] | number | number[] | boolean | Buffer;

/**
 * The typed value of an option's bytes per the table; the raw bytes for
 * unknown codes or when the length does not fit the type (never throws).
 */
export function decodeOptionValue(code: number, data: Buffer): OptionValue {
  const spec = OPTION_TABLE.get(code);
  if (!spec) return data;
  switch (spec.type) {
    case 'ip':
      return data.length === 4 ? ipAt(data, 0) : data;
    case 'ips':
      if (data.length === 0 || data.length % 4 !== 0) return data;
      return Array.from({ length: data.length / 4 }, (_, i) => ipAt(data, i * 4));
    case 'uint8':
      return data.length === 1 ? data[0]! : data;
    case 'uint16':
      return data.length === 2 ? data.readUInt16BE(0) : data;
    case 'uint32':
      return data.length === 4 ? data.readUInt32BE(0) : data;
    case 'int32':
      return data.length === 4 ? data.readInt32BE(0) : data;
    case 'bool':
      return data.length === 1 ? data[0] !== 0 : data;
    case 'string':
      return trimNul(data).toString('latin1');
    case 'uint8s':
      return [...data];
    case 'uint16s':
      if (data.length === 0 || data.length % 2 !== 0) return data;
      return Array.from({ length: data.length / 2 }, (_, i) => data.readUInt16BE(i * 2));
    case 'bytes':
      return data;
  }
}

export function ipAt(data: Buffer, offset: number): string {
  return `${data[offset]}.${data[offset + 1]}.${data[offset + 2]}.${data[offset + 3]}`;
}

/** Strings in options may be NUL-terminated by some clients (RFC 2132 §2 says they should not be). */
export function trimNul(data: Buffer): Buffer {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end -= 1;
  return end === data.length ? data : data.subarray(0, end);
}

// ---- options an operator sets ----

/**
 * Codes the server owns: they frame the exchange (message type, server id,
 * lease times, requested address, parameter list, overload, client id,
 * relay agent information), so an operator value would break the protocol.
 */
export const RESERVED_OPTION_CODES: ReadonlySet<number> = new Set([
  OPT.PAD,
  OPT.REQUESTED_IP,
  OPT.LEASE_TIME,
  OPT.OVERLOAD,
  OPT.MESSAGE_TYPE,
  OPT.SERVER_ID,
  OPT.PARAMETER_LIST,
  OPT.MAX_MESSAGE_SIZE,
  OPT.RENEWAL_TIME,
  OPT.REBINDING_TIME,
  OPT.CLIENT_ID,
  OPT.RELAY_AGENT_INFO,
  OPT.END,
]);

/** Why the option's value does not fit its type, or null. */
export function customOptionProblem(option: CustomOption): { field: 'code' | 'value'; message: string } | null {
  if (RESERVED_OPTION_CODES.has(option.code)) {
    return { field: 'code', message: `option ${option.code} is managed by the server and cannot be set` };
  }
  const { value } = option;
  switch (option.type) {
    case 'ip':
      return typeof value === 'string' && parseIpv4(value) !== null ? null : { field: 'value', message: 'must be an IPv4 address string' };
    case 'ips':
      return Array.isArray(value) && value.length > 0 && value.every((v) => parseIpv4(v) !== null)
        ? null
        : { field: 'value', message: 'must be a non-empty array of IPv4 addresses' };
    case 'string':
      return typeof value === 'string' && value.length > 0 && Buffer.byteLength(value, 'utf8') <= 1024
        ? null
        : { field: 'value', message: 'must be a non-empty string' };
    case 'uint8':
    case 'uint16':
    case 'uint32': {
      const max = option.type === 'uint8' ? 0xff : option.type === 'uint16' ? 0xffff : 0xffffffff;
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max
        ? null
        : { field: 'value', message: `must be an integer from 0 to ${max}` };
    }
    case 'bool':
      return typeof value === 'boolean' ? null : { field: 'value', message: 'must be true or false' };
    case 'hex':
      return typeof value === 'string' && /^([0-9a-fA-F]{2}:?)+$/.test(value) && !value.endsWith(':')
        ? null
        : { field: 'value', message: 'must be hex bytes, e.g. "0a1b2c" or "0a:1b:2c"' };
  }
}

/** The option's wire bytes (validated options only). */
export function encodeCustomOption(option: CustomOption): Buffer {
  const { value } = option;
  switch (option.type) {
    case 'ip':
      return ipBytes([value as string]);
    case 'ips':
      return ipBytes(value as string[]);
    case 'string':
      return Buffer.from(value as string, 'utf8');
    case 'uint8':
      return Buffer.from([value as number]);
    case 'uint16': {
      const out = Buffer.alloc(2);
      out.writeUInt16BE(value as number);
      return out;
    }
    case 'uint32': {
      const out = Buffer.alloc(4);
      out.writeUInt32BE(value as number);
      return out;
    }
    case 'bool':
      return Buffer.from([value ? 1 : 0]);
    case 'hex':
      return Buffer.from((value as string).replace(/:/g, ''), 'hex');
  }
}

function ipBytes(addresses: readonly string[]): Buffer {
  const out = Buffer.alloc(addresses.length * 4);
  addresses.forEach((address, i) => out.writeUInt32BE(parseIpv4(address) ?? 0, i * 4));
  return out;
}
