import type { IpFamily } from './ip-math.js';

/** One address of a network interface. */
export interface NicAddress {
  address: string;
  family: IpFamily;
  prefix: number;
  /** Interface notation `address/prefix`, e.g. 192.168.1.10/24. */
  cidr: string;
  /** The subnet the address is on, e.g. 192.168.1.0/24. */
  subnet: string;
}

/** A network interface (NIC) as Bootwright sees it. */
export interface Nic {
  name: string;
  /** Lowercase colon form; null for interfaces without an Ethernet-style hardware address (tun, InfiniBand). */
  mac: string | null;
  addresses: NicAddress[];
  /** null where the platform does not report it (everything but Linux). */
  mtu: number | null;
  /** Administratively up with a usable link. */
  up: boolean;
  /** Loopback. */
  internal: boolean;
}

/** Reads the current interfaces; the one seam tests replace with fixture data. */
export type NicReader = () => Nic[];
