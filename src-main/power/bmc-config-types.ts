import type { Row } from '../store/collection.js';
import type { BmcConfigView } from './power-contract.js';

export { BMC_PRIVILEGES, type BmcConfigInput, type BmcConfigView, type BmcPrivilege } from './power-contract.js';

/**
 * A BMC config as stored: the API's shape without `has_password`, plus
 * `password_secret`, the AES-GCM sealed password. It never leaves the server:
 * every read goes through configView, and the response schema has no field for it.
 */
export interface BmcConfig extends Omit<BmcConfigView, 'has_password'>, Row {
  password_secret: string | null;
}

export const BMC_SORT_FIELDS = ['id', 'name', 'address', 'protocol', 'power_state', 'last_checked_at', 'host_id', 'created_at'] as const;

export function configView(config: BmcConfig): BmcConfigView {
  const { password_secret: secret, ...rest } = config;
  return { ...rest, has_password: secret !== null };
}
