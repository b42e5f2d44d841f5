/**
 * What a socket error code means for someone trying to reach a BMC, in plain
 * words with what to check: the operator sees this on the host card and in
 * the BMC list, not Node's `connect EHOSTUNREACH`. Null for codes that are
 * not about reaching the BMC (the caller keeps its own message).
 */
export function networkCause(code: string | undefined): string | null {
  switch (code) {
    case 'ENETUNREACH':
      return 'no route to the BMC\'s network (ENETUNREACH): this machine has no interface or gateway for that address — check the address, or connect the management network';
    case 'EHOSTUNREACH':
      return 'the BMC does not answer on its network (EHOSTUNREACH: no ARP reply or no route) — check that it is powered, cabled and has this address';
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED): the address answers but nothing listens on this port — check the port and that the BMC\'s IPMI over LAN or Redfish service is enabled';
    case 'ETIMEDOUT':
      return 'the connection timed out (ETIMEDOUT) — check that the BMC is reachable from this machine (firewall, VLAN)';
    case 'ECONNRESET':
      return 'the BMC closed the connection (ECONNRESET) — it may be busy or restarting; try again';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve (${code}) — use the BMC's IP address or fix DNS`;
    case 'EADDRNOTAVAIL':
      return 'no local address can reach that address (EADDRNOTAVAIL) — check the address';
    case 'EACCES':
    case 'EPERM':
      return `sending to that address is not permitted (${code}) — a broadcast address, or a firewall on this machine`;
    default:
      return null;
  }
}
