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
  intToIpv4,
  ipFamily,
  ipv4ToInt,
  isHostAddressIn,
  isHostIn,
  isIpv4,
  normalizeIp,
  parseIpv4,
  parseIpv4Subnet,
  parseSubnet,
  prefixMask,
  subnetContains,
  subnetHas,
  subnetOf,
  unmapIpv4,
  type IpFamily,
  type Ipv4Subnet,
  type Subnet,
} from './ip-math.js';
export { requestSource } from './source-address.js';
