import { intToIpv4 } from '../../network/ip-math.js';
import type { AccessPolicy } from '../access-policy.js';
import type { Archmap } from '../archmap.js';
import type { Reservations } from '../reservations.js';
import { bootFields, chooseBootInfo } from './boot-info.js';
import type { ClientRequest } from './client-request.js';
import { findOption, type DhcpPacket } from './dhcp-codec.js';
import { clientEventDetail, type DhcpObserver } from './dhcp-observer.js';
import type { OutgoingReply, ServingContext } from './dhcp-types.js';
import { MSG, OPT } from '../dhcp-options.js';
import { buildReply } from './reply-builder.js';
import { replyDestination, type ReplyDestination } from './reply-addressing.js';

export interface ProxyResponderDeps {
  access: AccessPolicy;
  archmap: Archmap;
  reservations: Reservations;
  observer: DhcpObserver;
  httpBase: (serverAddress: string) => string;
  send: (reply: OutgoingReply) => void;
}

/**
 * proxyDHCP (PXE 2.1 §2.2.3, "DHCP and proxyDHCP on different servers"):
 * beside the LAN's own DHCP server, answer only PXE, UEFI HTTP-boot and iPXE
 * clients, with boot information and no address (yiaddr 0). A DISCOVER on
 * port 67 gets a proxy OFFER; a REQUEST to port 4011 (or to 67 naming us as
 * server) gets an ACK with the same boot information. Everything else —
 * ordinary clients, REQUESTs to the LAN server — is left to the LAN server.
 */
export class ProxyResponder {
  private readonly deps: ProxyResponderDeps;

  constructor(deps: ProxyResponderDeps) {
    this.deps = deps;
  }

  /**
   * Handles a request received on port 67 (`pxePort` false) or 4011. The
   * reply for 4011 goes back to where the request came from.
   */
  handle(client: ClientRequest, context: ServingContext, options: { pxePort: boolean; source?: ReplyDestination }): void {
    if (!client.pxe && !client.httpBoot && !client.ipxe) return this.deps.observer.dropped('not_for_us');
    if (client.type === MSG.DISCOVER && !options.pxePort) return this.answer(client, context, MSG.OFFER, null, false);
    if (client.type === MSG.REQUEST || client.type === MSG.INFORM) {
      // On port 67 a REQUEST usually selects the LAN server's offer; we answer only one that names us.
      if (!options.pxePort && client.serverId !== context.serverId) return this.deps.observer.dropped('not_for_us');
      return this.answer(client, context, MSG.ACK, options.pxePort ? (options.source ?? null) : null, options.pxePort);
    }
    this.deps.observer.dropped('not_for_us');
  }

  private answer(client: ClientRequest, context: ServingContext, type: number, source: ReplyDestination | null, viaPxePort: boolean): void {
    const { observer } = this.deps;
    const reason = this.deps.access.denialReason(client.mac);
    if (reason !== null) {
      observer.dropped('denied');
      if (reason === 'not_whitelisted') {
        void this.deps.access.recordUnauthorized({ mac: client.mac, vendor_class: client.vendorClass, arch: client.arch, hostname: client.hostname });
      }
      if (observer.wantsEvent('dhcp.denied', 'warn', client.mac)) {
        observer.event({
          kind: 'dhcp.denied',
          level: 'warn',
          message: `proxyDHCP refused ${client.mac}: ${reason === 'blacklisted' ? 'blacklisted' : 'not on the whitelist'}`,
          mac: client.mac,
          detail: { ...this.detail(client, context), reason },
        });
      }
      return;
    }
    const reservation = this.deps.reservations.byMac(client.mac);
    const boot = chooseBootInfo(client, context.serverAddress, {
      archmap: this.deps.archmap,
      httpBase: this.deps.httpBase,
      bootFileOverride: reservation?.boot_file ?? null,
    });
    if (!boot) return observer.dropped('not_for_us');
    // The address the LAN's server gave (a port 4011 REQUEST carries it): it ties the TFTP and HTTP
    // transfers that follow, which know only the address, to this MAC in the boot timeline.
    const clientIp = client.ciaddr !== 0 ? intToIpv4(client.ciaddr) : null;
    if (observer.wantsEvent(type === MSG.OFFER ? 'dhcp.discover' : 'dhcp.request', 'info', client.mac)) {
      observer.event({
        kind: type === MSG.OFFER ? 'dhcp.discover' : 'dhcp.request',
        message: `proxyDHCP ${type === MSG.OFFER ? 'DISCOVER' : 'REQUEST'} from ${client.mac}`,
        mac: client.mac,
        ip: clientIp,
        detail: this.detail(client, context),
      });
    }
    const bootItem = type === MSG.ACK ? (findOption(client.packet, OPT.VENDOR_SPECIFIC) ?? null) : null;
    const fields = bootFields(boot, client, context.serverAddress, { proxy: true, bootItem });
    const packet: DhcpPacket = buildReply(client, {
      type,
      serverId: context.serverAddress,
      siaddr: fields.siaddr,
      sname: fields.sname,
      file: fields.file,
      required: fields.options,
    });
    const destination = source ?? replyDestination(client, type);
    this.deps.send({ packet, destination, type: type === MSG.OFFER ? 'offer' : 'ack', context, viaPxePort });
    if (observer.wantsEvent(type === MSG.OFFER ? 'dhcp.offer' : 'dhcp.ack', 'info', client.mac)) {
      observer.event({
        kind: type === MSG.OFFER ? 'dhcp.offer' : 'dhcp.ack',
        message: `proxyDHCP ${type === MSG.OFFER ? 'OFFER' : 'ACK'} to ${client.mac}: ${boot.file}`,
        mac: client.mac,
        ip: clientIp,
        detail: { ...this.detail(client, context), boot_file: boot.file, boot_kind: boot.kind, loader: boot.loader },
      });
    }
  }

  private detail(client: ClientRequest, context: ServingContext): Record<string, unknown> {
    return clientEventDetail(client, context, this.deps.archmap, 'proxy');
  }
}
