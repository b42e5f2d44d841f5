import type { Row } from '../store/collection.js';
import type { BmcProtocol, PowerState } from './bmc-client.js';

export const BMC_PRIVILEGES = ['operator', 'administrator'] as const;
export type BmcPrivilege = (typeof BMC_PRIVILEGES)[number];

/** A BMC config as stored. `password_secret` is the AES-GCM sealed password; it never leaves the server. */
export interface BmcConfig extends Row {
  name: string;
  address: string;
  port: number;
  protocol: BmcProtocol;
  username: string;
  password_secret: string | null;
  host_id: number | null;
  verify_tls: boolean;
  /** IPMI cipher suite; null tries 17, then 3. */
  cipher_suite: 3 | 17 | null;
  privilege: BmcPrivilege;
  power_state: PowerState | null;
  vendor: string | null;
  model: string | null;
  last_checked_at: string | null;
  last_error: string | null;
}

/** What the API shows: everything but the sealed password, plus whether one is set. */
export type BmcConfigView = Omit<BmcConfig, 'password_secret'> & { has_password: boolean };

/** Fields a client sets (create: name, address, username required; update: any subset). */
export interface BmcConfigInput {
  name?: string;
  address?: string;
  port?: number;
  protocol?: BmcProtocol;
  username?: string;
  /** Plain text in; sealed before it is stored. An empty string stores "no password". */
  password?: string;
  host_id?: number | null;
  verify_tls?: boolean;
  cipher_suite?: 3 | 17 | null;
  privilege?: BmcPrivilege;
}

export const BMC_SORT_FIELDS = ['id', 'name', 'address', 'protocol', 'power_state', 'last_checked_at', 'host_id', 'created_at'] as const;

export function configView(config: BmcConfig): BmcConfigView {
  const { password_secret: secret, ...rest } = config;
  return { ...rest, has_password: secret !== null };
}
