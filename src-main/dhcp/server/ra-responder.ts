import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Icmpv6Opener, Icmpv6Socket } from './icmpv6-socket.js';
import { ALL_NODES, ICMPV6_ROUTER_ADVERTISEMENT, isValidSolicitation, ND_HOP_LIMIT, routerAdvertisement } from './ra-packet.js';

/** At most one RA per interface this often: Router Solicitations coalesce, a flood of them is no amplifier. */
const MIN_INTERVAL_MS = 50;

export interface RaResponderDeps {
  open: Icmpv6Opener;
  log: Logger;
  /** This machine's IPv6 addresses (an RA from one of them is ours, seen through another interface on the same segment). */
  ownAddresses: () => ReadonlySet<string>;
  /** Another router advertises on the interface: the responder has stood down. */
  onForeignRouter: (interfaceName: string, source: string) => void;
}

/**
 * Router Advertisements with router lifetime 0 on one served interface
 * (docs/dhcp.md, "IPv6 Router Advertisements"): one when started and on
 * link-up, and one in answer to every Router Solicitation (multicast to
 * ff02::1, so every client soliciting at that moment is answered at once;
 * iPXE takes only an RA that arrives while it solicits). Stands down for
 * good when another router's RA is seen on the segment: that router's
 * flags and prefixes are the ones its clients must get.
 */
export class RaResponder {
  readonly interfaceName: string;
  private readonly mac: string | null;
  private readonly deps: RaResponderDeps;
  private socket: Icmpv6Socket | null = null;
  private lastSentAt = 0;
  private pending: NodeJS.Timeout | null = null;
  private foreignRouter: string | null = null;
  private sent = 0;

  constructor(interfaceName: string, mac: string | null, deps: RaResponderDeps) {
    this.interfaceName = interfaceName;
    this.mac = mac;
    this.deps = deps;
  }

  /** Opens the socket and announces; throws (with an errno `code`) when the socket cannot be opened. */
  start(): void {
    this.socket = this.deps.open(this.interfaceName, (type, source, hopLimit, bytes) => this.received(type, source, hopLimit, bytes));
    this.announce();
  }

  stop(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
    this.socket?.close();
    this.socket = null;
  }

  /** The router that made us stand down, or null. */
  get standingDownFor(): string | null {
    return this.foreignRouter;
  }

  /** How many RAs went out (tests, debug). */
  get sentCount(): number {
    return this.sent;
  }

  /** An unsolicited RA now (at most one per MIN_INTERVAL_MS): at the start and when the link comes up. */
  announce(): void {
    if (!this.socket || this.foreignRouter !== null || this.pending) return;
    const wait = this.lastSentAt + MIN_INTERVAL_MS - Date.now();
    if (wait <= 0) return this.send();
    this.pending = setTimeout(() => {
      this.pending = null;
      this.send();
    }, wait);
  }

  private received(type: number, source: string, hopLimit: number, bytes: Buffer): void {
    if (type === ICMPV6_ROUTER_ADVERTISEMENT) {
      if (hopLimit !== -1 && hopLimit !== ND_HOP_LIMIT) return;
      if (this.deps.ownAddresses().has(source) || this.foreignRouter !== null) return;
      this.foreignRouter = source;
      this.stop();
      this.deps.onForeignRouter(this.interfaceName, source);
      return;
    }
    if (isValidSolicitation(type, hopLimit, bytes)) this.announce();
  }

  private send(): void {
    if (!this.socket) return;
    this.lastSentAt = Date.now();
    try {
      this.socket.send(ALL_NODES, routerAdvertisement(this.mac));
      this.sent += 1;
    } catch (err) {
      // No link yet (ENETDOWN), our link-local address still in duplicate address detection (EADDRNOTAVAIL):
      // the next solicitation or link-up tries again.
      this.deps.log.debug(`dhcp: router advertisement on ${this.interfaceName} not sent: ${errorMessage(err)}`);
    }
  }
}
