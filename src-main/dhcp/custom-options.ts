import { parseIpv4 } from '../network/ip-math.js';
import type { CustomOption } from './dhcp-contract.js';

export { CUSTOM_OPTION_TYPES, type CustomOption, type CustomOptionType } from './dhcp-contract.js';

/**
 * Codes the server owns: they frame the exchange (message type, server id,
 * lease times, requested address, parameter list, overload, client id,
 * relay agent information), so an operator value would break the protocol.
 */
export const RESERVED_OPTION_CODES: ReadonlySet<number> = new Set([0, 50, 51, 52, 53, 54, 55, 57, 58, 59, 61, 82, 255]);

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
