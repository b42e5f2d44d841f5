import type { AreaModule } from '../core/area.js';
import { interfaceRoutes } from './network-routes.js';
import type { NetworkService } from './network-service.js';

export { NetworkService, DEFAULT_POLL_MS, SAFETY_POLL_MS, type NetworkWatchOptions, type ServedInterface, type ServedSubnet, type WatchState } from './network-service.js';
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
export { lanUrls } from './lan-urls.js';
export { LinkMonitor, parseMonitorLine, LineSplitter, backoffDelay, findIp, type LinkEvent, type MonitorState } from './link-monitor.js';
export { parseIpAddressJson, readIpAddresses, type IpAddressTable } from './ip-addresses.js';
export { NicAddressSchema, NicSchema, NIC_LINK_STATES, ResolvedServerAddressSchema, type NicLink } from './network-contract.js';
export { interfaceRoutes } from './network-routes.js';

/**
 * The network area (docs/architecture.md, "Area folders"): the facade is the
 * kernel's NetworkService; the routes list this machine's interfaces
 * (GET /interfaces and /network/interfaces). While running, it follows the
 * kernel's link and address events (`ip monitor`; a poll without iproute2).
 */
export function networkArea(): AreaModule<'network', NetworkService, Record<string, never>> {
  return {
    name: 'network',
    needs: [],
    create(kernel) {
      const { network } = kernel;
      return {
        facade: network,
        routes: [interfaceRoutes(network)],
        services: [],
        // Before the servers start: the addresses of interfaces without a link are known only through `ip`.
        prepare: () => network.prime(),
        start: async () => network.startWatching(),
        stop: async () => network.stopWatching(),
      };
    },
  };
}
