export { NetworkService, DEFAULT_POLL_MS, type ServedInterface, type ServedSubnet } from './network-service.js';
export type { Nic, NicAddress, NicReader } from './nic.js';
export { readNics, buildNics, readSysLinks, type SysLink } from './nic-reader.js';
export {
  isServed,
  resolveServerAddresses,
  ServerAddressTable,
  type ResolvedServerAddress,
  type ServedSelection,
  type ServerAddressOverride,
} from './server-addresses.js';
export {
  ipFamily,
  isHostAddressIn,
  normalizeIp,
  parseSubnet,
  subnetContains,
  subnetOf,
  unmapIpv4,
  type IpFamily,
  type Subnet,
} from './ip-math.js';
