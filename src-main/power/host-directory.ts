/**
 * The little the power area needs to know about hosts: find one by id or
 * MAC, read its MAC and addresses. Structural, so the hosts area's service
 * fits without either area importing the other's internals.
 */
export interface PowerHost {
  id: number;
  mac: string | null;
  hostname?: string | null;
  /** Fixed address, if any. */
  ip?: string | null;
  /** Where the host was last seen (a lease, a boot). */
  last_seen_ip?: string | null;
}

export interface HostDirectory {
  get(id: number): PowerHost | undefined;
  findByMac(mac: string): PowerHost | undefined;
}

/** Looks the directory up at call time: null while the hosts area is absent. */
export type HostDirectorySource = () => HostDirectory | null;

/** The address WOL should aim at: the fixed one, else the last seen one. */
export function hostAddress(host: PowerHost): string | null {
  return host.ip ?? host.last_seen_ip ?? null;
}
