import { AddressPool } from './address-pool.js';
import type { DhcpSettings, ParsedSubnetConfig } from '../dhcp-settings.js';
import type { LeaseDatabase } from '../leases.js';
import type { DhcpReservation, Reservations } from '../reservations.js';
import { intToIpv4, isHostIn, parseIpv4 } from '../../network/ip-math.js';

/** How long an offered address is held for the client's REQUEST. */
export const OFFER_HOLD_MS = 60_000;

interface Offer {
  mac: string;
  /** CIDR of the subnet it was made on (a broadcast is offered on every served interface). */
  subnet: string;
  ip: number;
  until: number;
}

export interface AddressSelectorDeps {
  settings: DhcpSettings;
  leases: LeaseDatabase;
  reservations: Reservations;
  /** Our own addresses (never offered). */
  ownAddresses: () => ReadonlySet<number>;
}

/**
 * Which address a client may have (RFC 2131 §4.3.1, §4.3.2): the pools per
 * subnet, the offers held for clients, and the checks against leases,
 * reservations, quarantine and our own addresses.
 */
export class AddressSelector {
  private readonly deps: AddressSelectorDeps;
  private pools = new Map<string, AddressPool>();
  /** Offer holds per client (one per subnet), and the reverse index by address. */
  private readonly offers = new Map<string, Offer[]>();
  private readonly offeredIps = new Map<number, Offer>();

  constructor(deps: AddressSelectorDeps) {
    this.deps = deps;
    this.reload();
  }

  /** Rebuilds the pools from the settings and forgets the offers. */
  reload(): void {
    const pools = new Map<string, AddressPool>();
    for (const entry of this.deps.settings.subnets()) {
      const ranges = entry.config.ranges
        .map((range) => ({ start: parseIpv4(range.start) ?? 0, end: parseIpv4(range.end) ?? -1 }))
        .filter((range) => range.start <= range.end);
      pools.set(entry.subnet.cidr, new AddressPool(ranges));
    }
    this.pools = pools;
    this.offers.clear();
    this.offeredIps.clear();
  }

  /**
   * The address to offer: the client's reservation, its current or last
   * lease, an offer already made, the address it asks for, then the pool.
   */
  choose(mac: string, requestedIp: number | null, subnet: ParsedSubnetConfig, reservation: DhcpReservation | undefined, now: number): number | null {
    if (reservation) {
      const ip = parseIpv4(reservation.ip);
      if (ip !== null && this.assignable(ip, mac, subnet, now)) return ip;
    }
    const lease = this.deps.leases.get(mac);
    if (lease && isHostIn(subnet.subnet, lease.ip) && this.assignable(lease.ip, mac, subnet, now)) return lease.ip;
    const offered = this.offerFor(mac, subnet);
    if (offered && offered.until > now && this.assignable(offered.ip, mac, subnet, now)) return offered.ip;
    if (requestedIp !== null && this.assignable(requestedIp, mac, subnet, now)) return requestedIp;
    const pool = this.pools.get(subnet.subnet.cidr);
    if (!pool) return null;
    const own = this.deps.ownAddresses();
    const isFree = (ip: number) => this.freeForPool(ip, mac, own, now);
    return pool.allocate({ isFree, isUnused: (ip) => this.deps.leases.byIp(ip) === undefined && isFree(ip) }, now);
  }

  /** May `ip` be leased to `mac` on this subnet now (the checks before an ACK)? */
  assignable(ip: number, mac: string, subnet: ParsedSubnetConfig, now: number): boolean {
    if (!isHostIn(subnet.subnet, ip)) return false;
    if (this.deps.ownAddresses().has(ip)) return false;
    const reserved = this.deps.reservations.byIp(ip);
    if (reserved && reserved.mac !== mac) return false;
    if (this.deps.leases.heldByOther(ip, mac, now)) return false;
    const offer = this.offeredIps.get(ip);
    if (offer && offer.mac !== mac && offer.until > now) return false;
    if (this.deps.leases.isQuarantined(ip, now)) return false;
    // A client with a reservation in this subnet gets that address, not another.
    const own = this.reservationIn(mac, subnet);
    if (own) return own.ip === intToIpv4(ip);
    return reserved !== undefined || (this.pools.get(subnet.subnet.cidr)?.has(ip) ?? false);
  }

  /** We have a record of the client on this subnet: a lease or a reservation. */
  knowsClient(mac: string, subnet: ParsedSubnetConfig): boolean {
    const lease = this.deps.leases.get(mac);
    if (lease && isHostIn(subnet.subnet, lease.ip)) return true;
    return this.reservationIn(mac, subnet) !== undefined;
  }

  /** The address matches the client's record (its reservation, else its lease). */
  matchesRecord(mac: string, subnet: ParsedSubnetConfig, ip: number): boolean {
    const reservation = this.reservationIn(mac, subnet);
    if (reservation) return reservation.ip === intToIpv4(ip);
    return this.deps.leases.get(mac)?.ip === ip;
  }

  /** The client's reservation when it lies in this subnet. */
  reservationIn(mac: string, subnet: ParsedSubnetConfig): DhcpReservation | undefined {
    const reservation = this.deps.reservations.byMac(mac);
    if (!reservation) return undefined;
    const ip = parseIpv4(reservation.ip);
    return ip !== null && isHostIn(subnet.subnet, ip) ? reservation : undefined;
  }

  /** Holds `ip` for the client's REQUEST (and keeps it from other clients meanwhile). */
  hold(mac: string, subnet: ParsedSubnetConfig, ip: number, now: number): void {
    const offer: Offer = { mac, subnet: subnet.subnet.cidr, ip, until: now + OFFER_HOLD_MS };
    const list = this.offers.get(mac);
    const index = list ? list.findIndex((o) => o.subnet === offer.subnet) : -1;
    if (list && index >= 0) {
      const previous = list[index]!;
      if (this.offeredIps.get(previous.ip) === previous) this.offeredIps.delete(previous.ip);
      list[index] = offer;
    } else if (list) {
      list.push(offer);
    } else {
      this.offers.set(mac, [offer]);
    }
    this.offeredIps.set(ip, offer);
  }

  /** The address held for the client on this subnet, if any. */
  heldFor(mac: string, subnet: ParsedSubnetConfig | null): number | undefined {
    return subnet ? this.offerFor(mac, subnet)?.ip : undefined;
  }

  /** Drops the client's offers on every subnet (it chose, declined or was acknowledged). */
  release(mac: string): void {
    const list = this.offers.get(mac);
    if (!list) return;
    this.offers.delete(mac);
    for (const offer of list) if (this.offeredIps.get(offer.ip) === offer) this.offeredIps.delete(offer.ip);
  }

  /** Drops offer holds that ran out. */
  sweep(now: number): void {
    for (const [mac, list] of this.offers) {
      const live = list.filter((offer) => offer.until > now);
      for (const offer of list) if (offer.until <= now && this.offeredIps.get(offer.ip) === offer) this.offeredIps.delete(offer.ip);
      if (live.length === 0) this.offers.delete(mac);
      else if (live.length !== list.length) this.offers.set(mac, live);
    }
  }

  private offerFor(mac: string, subnet: ParsedSubnetConfig): Offer | undefined {
    const list = this.offers.get(mac);
    if (!list) return undefined;
    for (const offer of list) if (offer.subnet === subnet.subnet.cidr) return offer;
    return undefined;
  }

  /** Free for a dynamic allocation to `mac`: nobody else holds, reserves or quarantines it, and it is not ours. */
  private freeForPool(ip: number, mac: string, own: ReadonlySet<number>, now: number): boolean {
    if (own.has(ip)) return false;
    if (this.deps.reservations.byIp(ip)) return false;
    if (this.deps.leases.heldByOther(ip, mac, now)) return false;
    const offer = this.offeredIps.get(ip);
    if (offer && offer.mac !== mac && offer.until > now) return false;
    return !this.deps.leases.isQuarantined(ip, now);
  }
}
