import type { RaisedAlert } from '../alerts/alerts-contract.js';
import type { BmcConfig } from './bmc-config-types.js';

/**
 * BMCs whose last conversation failed, as alerts: one per BMC, naming it
 * and its address, with the failure in the plain words the client gave it
 * (network-cause.ts). It clears at the next successful read.
 */
export function bmcAlerts(configs: readonly Pick<BmcConfig, 'id' | 'name' | 'address' | 'port' | 'last_error' | 'last_checked_at'>[]): RaisedAlert[] {
  return configs
    .filter((config) => config.last_error !== null)
    .map((config) => ({
      id: `bmc.${config.id}`,
      severity: 'warning' as const,
      source: 'power',
      title: `BMC "${config.name}" (${config.address}) does not answer as it should`,
      message: config.last_error ?? '',
      since: config.last_checked_at,
      link: '/bmc',
    }));
}
