import type { FieldError } from '../core/errors.js';
import { isPrintableText, printableProblem } from '../core/printable-text.js';
import { bmcAddressProblem, isValidPort } from './bmc-address.js';
import { BMC_PROTOCOLS, DEFAULT_PORTS, type BmcProtocol } from './bmc-client.js';
import type { BmcConfig, BmcConfigInput, BmcPrivilege } from './bmc-config-types.js';
import type { HostDirectory } from './host-directory.js';
import { PASSWORD_MAX_BYTES, USERNAME_MAX_BYTES } from './ipmi/session-crypto.js';

/** The stored fields a validated input produces (the password stays plain until sealed). */
export interface CheckedBmcFields {
  name: string;
  address: string;
  port: number;
  protocol: BmcProtocol;
  username: string;
  host_id: number | null;
  verify_tls: boolean;
  cipher_suite: 3 | 17 | null;
  privilege: BmcPrivilege;
}

export const NAME_MAX = 64;
export const USERNAME_MAX = 64;
export const PASSWORD_MAX = 128;

export interface CheckContext {
  /** The row being updated (its values fill in what the input leaves out). */
  existing?: BmcConfig;
  /** Every other config, for the name and host uniqueness checks. */
  others: readonly Pick<BmcConfig, 'id' | 'name' | 'host_id'>[];
  hosts: HostDirectory | null;
}

/**
 * Checks a create or update as a whole and returns the fields to store
 * with the field errors (bare field names; callers prefix `body.` or the
 * CSV line). Duplicates (name, host) come back as errors with `conflict`.
 */
export function checkBmcInput(
  input: BmcConfigInput,
  context: CheckContext,
): { fields: CheckedBmcFields; password: string | undefined; errors: FieldError[]; conflicts: FieldError[] } {
  const errors: FieldError[] = [];
  const conflicts: FieldError[] = [];
  const existing = context.existing;
  const protocol = input.protocol ?? existing?.protocol ?? 'ipmi';
  if (!(BMC_PROTOCOLS as readonly string[]).includes(protocol)) errors.push({ field: 'protocol', message: `must be one of ${BMC_PROTOCOLS.join(', ')}` });
  const name = (input.name ?? existing?.name ?? '').trim();
  if (name === '') errors.push({ field: 'name', message: 'is required' });
  else if (name.length > NAME_MAX) errors.push({ field: 'name', message: `must be at most ${NAME_MAX} characters` });
  else if (!isPrintableText(name)) errors.push({ field: 'name', message: printableProblem(name)! });
  const address = (input.address ?? existing?.address ?? '').trim();
  const addressProblem = bmcAddressProblem(address);
  if (addressProblem) errors.push({ field: 'address', message: addressProblem });
  // Changing the protocol without a port moves to that protocol's default port.
  const port = input.port ?? (input.protocol !== undefined && input.protocol !== existing?.protocol ? undefined : existing?.port) ?? DEFAULT_PORTS[protocol];
  if (!isValidPort(port)) errors.push({ field: 'port', message: 'must be an integer from 1 to 65535' });
  const username = input.username ?? existing?.username ?? '';
  if (username === '') errors.push({ field: 'username', message: 'is required' });
  else if (username.length > USERNAME_MAX) errors.push({ field: 'username', message: `must be at most ${USERNAME_MAX} characters` });
  else if (!isPrintableText(username)) errors.push({ field: 'username', message: printableProblem(username)! });
  else if (protocol === 'ipmi' && Buffer.byteLength(username, 'utf8') > USERNAME_MAX_BYTES) {
    errors.push({ field: 'username', message: `IPMI user names are at most ${USERNAME_MAX_BYTES} bytes` });
  }
  const password = input.password;
  if (password !== undefined) {
    if (password.length > PASSWORD_MAX) errors.push({ field: 'password', message: `must be at most ${PASSWORD_MAX} characters` });
    else if (protocol === 'ipmi' && Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) {
      errors.push({ field: 'password', message: `IPMI v2.0 passwords are at most ${PASSWORD_MAX_BYTES} bytes` });
    }
  }
  const hostId = input.host_id === undefined ? (existing?.host_id ?? null) : input.host_id;
  if (hostId !== null && input.host_id !== undefined) {
    if (!context.hosts) errors.push({ field: 'host_id', message: 'hosts are not available' });
    else if (!context.hosts.get(hostId)) errors.push({ field: 'host_id', message: `host ${hostId} not found` });
  }
  const others = context.others.filter((other) => other.id !== existing?.id);
  if (name !== '' && others.some((other) => other.name.toLowerCase() === name.toLowerCase())) {
    conflicts.push({ field: 'name', message: `a BMC config named "${name}" already exists` });
  }
  if (hostId !== null && others.some((other) => other.host_id === hostId)) {
    conflicts.push({ field: 'host_id', message: `host ${hostId} already has a BMC config` });
  }
  return {
    fields: {
      name,
      address,
      port,
      protocol,
      username,
      host_id: hostId,
      verify_tls: input.verify_tls ?? existing?.verify_tls ?? true,
      cipher_suite: input.cipher_suite === undefined ? (existing?.cipher_suite ?? null) : input.cipher_suite,
      privilege: input.privilege ?? existing?.privilege ?? 'administrator',
    },
    password,
    errors,
    conflicts,
  };
}
