import type { RaisedAlert } from '../alerts/alerts-contract.js';
import type { DhcpGuardStatus } from './dhcp-contract.js';

/**
 * The rogue-DHCP guard's findings as alerts: an interface kept out of server
 * mode (or served anyway) because another server answers there is an error
 * with the guard's own advice; a foreign server clients named while we
 * served is a warning.
 */
export function guardAlerts(status: DhcpGuardStatus): RaisedAlert[] {
  const alerts: RaisedAlert[] = [];
  for (const guarded of status.interfaces) {
    if (guarded.state !== 'blocked' && guarded.state !== 'forced') continue;
    const servers = guarded.foreign.map((server) => server.server_id).join(', ');
    alerts.push({
      id: `dhcp.foreign.${guarded.interface}`,
      severity: guarded.state === 'blocked' ? 'error' : 'warning',
      source: 'dhcp',
      title: guarded.state === 'blocked' ? `Another DHCP server answers on ${guarded.interface}: not served` : `Another DHCP server answers on ${guarded.interface} (served anyway)`,
      message: `${servers === '' ? 'A foreign server' : servers}: ${guarded.message}`,
      since: guarded.probed_at,
      link: '/services/dhcp',
    });
  }
  const flagged = new Set(status.interfaces.filter((guarded) => guarded.state === 'blocked' || guarded.state === 'forced').map((guarded) => guarded.interface));
  for (const sighting of status.sightings) {
    if (sighting.interface !== null && flagged.has(sighting.interface)) continue;
    alerts.push({
      id: `dhcp.sighting.${sighting.server_id}`,
      severity: 'warning',
      source: 'dhcp',
      title: `A foreign DHCP server (${sighting.server_id}) is on ${sighting.interface ?? 'a served network'}`,
      message: `${sighting.how === 'client_request' ? `client ${sighting.client_mac ?? '?'} asked it for an address` : 'the periodic probe got its offer'} (${sighting.count} time${sighting.count === 1 ? '' : 's'} since ${sighting.first_seen}). Two DHCP servers on one network hand out conflicting addresses: switch this interface to proxy mode, or stop the other server.`,
      since: sighting.first_seen,
      link: '/services/dhcp',
    });
  }
  return alerts;
}
