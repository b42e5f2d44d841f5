import type { Nic } from './network-contract.js';

/** A network interface (NIC) as Bootwright sees it, and one of its addresses: the API's shapes (network-contract.ts). */
export type { Nic, NicAddress } from './network-contract.js';

/** Reads the current interfaces; the one seam tests replace with fixture data. */
export type NicReader = () => Nic[];
