import type { AppContext } from '../../core/app-context.js';
import { DnsSettingsStore } from '../../dns/dns-settings.js';
import { DhcpService } from './dhcp-service.js';

export { DhcpService, type DhcpServiceOptions } from './dhcp-service.js';
export { dhcpPacket, decode, encode, encodingLength, DhcpDecodeError, type DhcpPacket, type DhcpOption } from './dhcp-codec.js';
export { OPTION_TABLE, OPT, MSG } from './dhcp-options.js';

/**
 * The DHCP service as the core registers it: boot URLs point at the HTTP
 * server (`scheme`, and the port it is bound to), option 15 defaults to the
 * DNS service's local domain.
 */
export function createDhcpService(ctx: AppContext, http: { scheme: 'http' | 'https'; port: () => number }): DhcpService {
  const dns = new DnsSettingsStore(ctx.store);
  return new DhcpService(ctx, {
    httpBase: (address) => `${http.scheme}://${address}:${http.port()}`,
    localDomain: () => dns.get().local_domain,
  });
}
