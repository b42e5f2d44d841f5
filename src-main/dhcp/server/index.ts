export { DhcpService, type DhcpServiceDeps, type DhcpServiceOptions } from './dhcp-service.js';
export { dhcpPacket, decode, encode, encodingLength, DhcpDecodeError, type DhcpPacket, type DhcpOption } from './dhcp-codec.js';
export { OPTION_TABLE, OPT, MSG } from '../dhcp-options.js';
export { registerLeaseGauges, observeJournal } from './lease-gauges.js';
