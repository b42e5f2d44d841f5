import type { DhcpGuardStatus, DhcpInterface, ForeignDhcpServer, GuardInterface } from '@contracts/dhcp';

/*
 * What the DHCP page and the dashboard show of the rogue-DHCP guard
 * (GET /dhcp/guard), as pure functions so they are tested without a server.
 */

/** "192.168.88.1 offers 192.168.88.120/255.255.255.0, router 192.168.88.1, MAC 52:54:00:…" */
export function describeServer(server: ForeignDhcpServer): string {
  const facts = [
    server.source_ip !== server.server_id ? `from ${server.source_ip}` : null,
    server.offered_ip ? `offers ${server.offered_ip}${server.subnet_mask ? `/${server.subnet_mask}` : ''}` : null,
    server.router ? `router ${server.router}` : null,
    server.mac ? `MAC ${server.mac}` : null,
  ].filter((fact): fact is string => fact !== null);
  return facts.length > 0 ? `${server.server_id} (${facts.join(', ')})` : server.server_id;
}

/** Interfaces the guard kept out of server mode, or served anyway (force), at the last start. */
export function guardFindings(status: DhcpGuardStatus | undefined): GuardInterface[] {
  return (status?.interfaces ?? []).filter((entry) => entry.state === 'blocked' || entry.state === 'forced');
}

/** The settings' interface list with `name` in proxy mode (the others as they are): the one-click fix. */
export function switchToProxy(interfaces: readonly DhcpInterface[], name: string): DhcpInterface[] {
  const listed = interfaces.some((entry) => entry.name === name);
  const out = interfaces.map((entry) => (entry.name === name ? { ...entry, mode: 'proxy' as const } : { ...entry }));
  return listed ? out : [...out, { name, mode: 'proxy' }];
}
