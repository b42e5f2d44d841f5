import type { AccessPolicy } from '../access-policy.js';
import type { Archmap } from '../archmap.js';
import type { DhcpSettings } from '../dhcp-settings.js';
import type { Lease, LeaseDatabase } from '../leases.js';
import type { DhcpReservation, Reservations } from '../reservations.js';
import { intToIpv4, isHostIn } from '../../network/ip-math.js';
import { AddressSelector } from './address-selector.js';
import type { ClientRequest } from './client-request.js';
import type { DhcpPacket } from './dhcp-codec.js';
import { clientEventDetail, type DhcpEventKind, type DhcpObserver, type DropReason } from './dhcp-observer.js';
import { MSG, OPT, type MessageTypeName } from '../dhcp-options.js';
import type { OutgoingReply, PingProbe, ServingContext } from './dhcp-types.js';
import { buildReply } from './reply-builder.js';
import { replyDestination } from './reply-addressing.js';
import { ReplyComposer } from './reply-composer.js';

export type { OutgoingReply, PingProbe, ServingContext } from './dhcp-types.js';

export interface DhcpEngineDeps {
  settings: DhcpSettings;
  leases: LeaseDatabase;
  reservations: Reservations;
  access: AccessPolicy;
  archmap: Archmap;
  observer: DhcpObserver;
  /** `http(s)://<address>:<port>` of the HTTP boot server. */
  httpBase: (serverAddress: string) => string;
  /** Default DNS servers for a subnet (our address while the DNS service runs), or empty. */
  defaultDnsServers: (serverAddress: string) => string[];
  /** Default domain name (the DNS local domain), or null. */
  defaultDomain: () => string | null;
  /** Our own addresses (never offered). */
  ownAddresses: () => ReadonlySet<number>;
  send: (reply: OutgoingReply) => void;
  ping?: PingProbe;
  now?: () => number;
}

/** Addresses tried per DISCOVER when ping checks keep finding them in use. */
const PING_ATTEMPTS = 3;

/**
 * The DHCP server proper (RFC 2131 §4.3): the lease lifecycle — offers,
 * requests in every client state, NAKs, declines, releases and informs —
 * with PXE boot information in OFFERs and ACKs. Transport-free: requests
 * come in with the context they were attributed to; replies go out through
 * `send`. ACKs that grant or extend a lease are sent only once the lease is
 * on disk.
 */
export class DhcpEngine {
  private readonly deps: DhcpEngineDeps;
  private readonly now: () => number;
  private readonly addresses: AddressSelector;
  private readonly replies: ReplyComposer;

  constructor(deps: DhcpEngineDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    this.addresses = new AddressSelector(deps);
    this.replies = new ReplyComposer(deps);
  }

  /** Rebuilds pools and cached options from the settings (after a change). */
  reload(): void {
    this.addresses.reload();
    this.replies.reload();
  }

  /** Handles one request attributed to `context`. */
  handle(client: ClientRequest, context: ServingContext): void {
    switch (client.type) {
      case MSG.DISCOVER:
        return this.discover(client, context);
      case MSG.REQUEST:
        return this.request(client, context);
      case MSG.DECLINE:
        return this.decline(client, context);
      case MSG.RELEASE:
        return this.release(client, context);
      case MSG.INFORM:
        return this.inform(client, context);
      default:
        this.deps.observer.dropped('not_request');
    }
  }

  /** Whether the client may be answered; emits dhcp.denied and records the device when not. */
  admit(client: ClientRequest, context: ServingContext): boolean {
    const reason = this.deps.access.denialReason(client.mac);
    if (reason === null) return true;
    this.deps.observer.dropped('denied');
    if (reason === 'not_whitelisted') {
      void this.deps.access.recordUnauthorized({ mac: client.mac, vendor_class: client.vendorClass, arch: client.arch, hostname: client.hostname });
    }
    this.event('dhcp.denied', client, context, null, () => `refused ${client.mac}: ${reason === 'blacklisted' ? 'blacklisted' : 'not on the whitelist'}`, 'warn', { reason });
    return false;
  }

  /** Drops offer holds that ran out; called by the service's sweep. */
  sweepOffers(now: number = this.now()): void {
    this.addresses.sweep(now);
  }

  // RFC 2131 §4.3.1
  private discover(client: ClientRequest, context: ServingContext): void {
    const { subnet } = context;
    if (!subnet) return this.drop('no_subnet');
    if (!this.admit(client, context)) return;
    this.event('dhcp.discover', client, context, null, () => `DISCOVER from ${client.mac}`);
    const now = this.now();
    const reservation = this.addresses.reservationIn(client.mac, subnet);
    const chosen = this.addresses.choose(client.mac, client.requestedIp, subnet, reservation, now);
    if (chosen === null) {
      this.event('dhcp.offer', client, context, null, () => `no free address in ${subnet.subnet.cidr} for ${client.mac}`, 'warn', { exhausted: true });
      return this.drop('pool_exhausted');
    }
    const ping = this.deps.ping;
    const known = this.deps.leases.get(client.mac)?.ip === chosen || reservation !== undefined;
    if (!ping || !this.deps.settings.current().ping_check || known) {
      this.offer(client, context, chosen, reservation, now);
      return;
    }
    void this.probeAndOffer(client, context, chosen, reservation, ping, PING_ATTEMPTS);
  }

  private async probeAndOffer(
    client: ClientRequest,
    context: ServingContext,
    candidate: number,
    reservation: DhcpReservation | undefined,
    ping: PingProbe,
    attempts: number,
  ): Promise<void> {
    const subnet = context.subnet!;
    // Hold the candidate while the probe runs, so a parallel DISCOVER does not pick it too.
    this.addresses.hold(client.mac, subnet, candidate, this.now());
    const inUse = await ping(intToIpv4(candidate)).catch(() => false);
    if (!inUse) {
      this.offer(client, context, candidate, reservation, this.now());
      return;
    }
    // Something answers on an address we consider free: keep it out of the pool like a declined one.
    const now = this.now();
    this.addresses.release(client.mac);
    this.deps.leases.quarantine(candidate, now + this.deps.settings.current().decline_quarantine_seconds * 1000);
    this.event('dhcp.offer', client, context, candidate, () => `${intToIpv4(candidate)} answers ping; not offered to ${client.mac}`, 'warn', { ping_conflict: true });
    this.deps.observer.dropped('ping_conflict');
    if (attempts <= 1) return;
    const next = this.addresses.choose(client.mac, client.requestedIp, subnet, reservation, now);
    if (next === null) return this.drop('pool_exhausted');
    await this.probeAndOffer(client, context, next, reservation, ping, attempts - 1);
  }

  private offer(client: ClientRequest, context: ServingContext, ip: number, reservation: DhcpReservation | undefined, now: number): void {
    const subnet = context.subnet!;
    this.addresses.hold(client.mac, subnet, ip, now);
    const leaseSeconds = this.replies.leaseSeconds(context);
    const packet = this.replies.compose(client, context, MSG.OFFER, ip, leaseSeconds, reservation);
    this.send(client, context, packet, MSG.OFFER, 'offer');
    this.event('dhcp.offer', client, context, ip, () => `OFFER ${intToIpv4(ip)} to ${client.mac}`);
  }

  // RFC 2131 §4.3.2
  private request(client: ClientRequest, context: ServingContext): void {
    const { subnet } = context;
    const now = this.now();
    const settings = this.deps.settings.current();
    if (client.serverId !== null) {
      // SELECTING: the client answers one server's offer; if not ours, our hold is void.
      if (client.serverId !== context.serverId) {
        this.addresses.release(client.mac);
        return this.drop('not_for_us');
      }
      if (!subnet) return this.drop('no_subnet');
      if (!this.admit(client, context)) return;
      this.event('dhcp.request', client, context, client.requestedIp, () => `REQUEST (selecting) from ${client.mac}`);
      const ip = client.requestedIp ?? (client.ciaddr !== 0 ? client.ciaddr : null);
      if (ip === null || !this.addresses.assignable(ip, client.mac, subnet, now)) {
        return this.nak(client, context, `address ${ip === null ? 'missing' : intToIpv4(ip)} is not available`);
      }
      return this.ack(client, context, ip, now);
    }
    if (client.ciaddr === 0) {
      // INIT-REBOOT: the client asks to keep an address it had.
      if (client.requestedIp === null) return this.drop('malformed');
      if (!this.admit(client, context)) return;
      const ip = client.requestedIp;
      this.event('dhcp.request', client, context, ip, () => `REQUEST (init-reboot) ${intToIpv4(ip)} from ${client.mac}`);
      if (!subnet || !isHostIn(subnet.subnet, ip)) {
        // The client is on another network than the one it remembers.
        if (settings.authoritative) return this.nak(client, context, 'wrong network');
        return this.drop('not_for_us');
      }
      const known = this.addresses.knowsClient(client.mac, subnet);
      if (!known) {
        // RFC 2131 §4.3.2: no record of the client: remain silent (unless the address is plainly someone else's).
        if (settings.authoritative && !this.addresses.assignable(ip, client.mac, subnet, now)) return this.nak(client, context, 'address not available');
        return this.drop('not_for_us');
      }
      if (!this.addresses.assignable(ip, client.mac, subnet, now) || !this.addresses.matchesRecord(client.mac, subnet, ip)) {
        return this.nak(client, context, `${intToIpv4(ip)} is not this client's address`);
      }
      return this.ack(client, context, ip, now);
    }
    // RENEWING (unicast) or REBINDING (broadcast): the address is in ciaddr.
    if (!this.admit(client, context)) return;
    const ip = client.ciaddr;
    this.event('dhcp.request', client, context, ip, () => `REQUEST (renew) ${intToIpv4(ip)} from ${client.mac}`);
    if (!subnet || !isHostIn(subnet.subnet, ip)) {
      if (settings.authoritative) return this.nak(client, context, 'wrong network');
      return this.drop('not_for_us');
    }
    if (!this.addresses.matchesRecord(client.mac, subnet, ip) || !this.addresses.assignable(ip, client.mac, subnet, now)) {
      if (settings.authoritative) return this.nak(client, context, `${intToIpv4(ip)} is not this client's lease`);
      return this.drop('not_for_us');
    }
    return this.ack(client, context, ip, now);
  }

  private ack(client: ClientRequest, context: ServingContext, ip: number, now: number): void {
    const subnet = context.subnet!;
    const leaseSeconds = this.replies.leaseSeconds(context);
    const previous = this.deps.leases.get(client.mac);
    const lease: Lease = {
      mac: client.mac,
      ip,
      starts: now,
      expires: now + leaseSeconds * 1000,
      hostname: client.hostname ?? previous?.hostname ?? null,
      clientId: client.clientId,
      vendorClass: client.vendorClass,
      arch: client.arch,
    };
    this.deps.leases.commit(lease);
    this.addresses.release(client.mac);
    const fresh = !previous || previous.ip !== ip || previous.expires <= now;
    const reservation = this.addresses.reservationIn(client.mac, subnet);
    const packet = this.replies.compose(client, context, MSG.ACK, ip, leaseSeconds, reservation);
    // The lease is on disk before the ACK leaves (RFC 2131 §4.3.2 makes the server commit first).
    this.deps.leases.whenDurable((err) => {
      if (err) return this.drop('journal_error');
      this.send(client, context, packet, MSG.ACK, 'ack');
      if (this.deps.observer.wantsEvent('dhcp.ack', 'info', client.mac)) {
        this.deps.observer.event({ kind: 'dhcp.ack', message: `ACK ${intToIpv4(ip)} to ${client.mac}`, mac: client.mac, ip: intToIpv4(ip), detail: this.detail(client, context) });
      }
      if (fresh) {
        this.event('dhcp.lease.granted', client, context, ip, () => `lease ${intToIpv4(ip)} granted to ${client.mac} for ${leaseSeconds} s`, 'info', { lease_seconds: leaseSeconds });
      }
    });
  }

  private nak(client: ClientRequest, context: ServingContext, why: string): void {
    const packet = buildReply(client, {
      type: MSG.NAK,
      serverId: context.serverAddress,
      required: [{ code: OPT.MESSAGE, data: Buffer.from(why, 'latin1') }],
      forceBroadcastFlag: client.giaddr !== 0,
    });
    // RFC 2131 §4.3.2: a NAK carries no yiaddr/ciaddr.
    packet.ciaddr = '0.0.0.0';
    this.send(client, context, packet, MSG.NAK, 'nak');
    this.event('dhcp.nak', client, context, null, () => `NAK to ${client.mac}: ${why}`, 'warn', { reason: why });
  }

  // RFC 2131 §4.3.3
  private decline(client: ClientRequest, context: ServingContext): void {
    if (client.serverId !== null && client.serverId !== context.serverId) return this.drop('not_for_us');
    const ip = client.requestedIp;
    if (ip === null) return this.drop('malformed');
    const lease = this.deps.leases.get(client.mac);
    const offered = this.addresses.heldFor(client.mac, context.subnet);
    // Only the client the address was given to may take it out of the pool.
    if (lease?.ip !== ip && offered !== ip) return this.drop('not_for_us');
    const now = this.now();
    const seconds = this.deps.settings.current().decline_quarantine_seconds;
    if (lease?.ip === ip) this.deps.leases.remove(client.mac);
    this.addresses.release(client.mac);
    if (seconds > 0) this.deps.leases.quarantine(ip, now + seconds * 1000);
    this.event('dhcp.decline', client, context, ip, () => `${client.mac} declined ${intToIpv4(ip)} (in use on the network); quarantined for ${seconds} s`, 'warn', { quarantine_seconds: seconds });
  }

  // RFC 2131 §4.3.4
  private release(client: ClientRequest, context: ServingContext): void {
    if (client.serverId !== null && client.serverId !== context.serverId) return this.drop('not_for_us');
    const lease = this.deps.leases.get(client.mac);
    if (!lease || lease.ip !== client.ciaddr) return this.drop('not_for_us');
    this.deps.leases.expire(client.mac, this.now());
    this.event('dhcp.release', client, context, lease.ip, () => `${client.mac} released ${intToIpv4(lease.ip)}`);
  }

  // RFC 2131 §4.3.5: configuration only, no lease.
  private inform(client: ClientRequest, context: ServingContext): void {
    if (client.ciaddr === 0) return this.drop('malformed');
    if (!context.subnet) return this.drop('no_subnet');
    if (!this.admit(client, context)) return;
    this.event('dhcp.inform', client, context, client.ciaddr, () => `INFORM from ${client.mac}`);
    const packet = this.replies.compose(client, context, MSG.ACK, null, null, this.addresses.reservationIn(client.mac, context.subnet));
    this.send(client, context, packet, MSG.ACK, 'ack');
  }

  private send(client: ClientRequest, context: ServingContext, packet: DhcpPacket, type: number, name: MessageTypeName): void {
    this.deps.send({ packet, destination: replyDestination(client, type), type: name, context });
  }

  private drop(reason: DropReason): void {
    this.deps.observer.dropped(reason);
  }

  /** Emits an event within the observer's budget; the message is built only then. */
  private event(
    kind: DhcpEventKind,
    client: ClientRequest,
    context: ServingContext,
    ip: number | null,
    message: () => string,
    level: 'info' | 'warn' = 'info',
    extra: Record<string, unknown> = {},
  ): void {
    if (!this.deps.observer.wantsEvent(kind, level, client.mac)) return;
    this.deps.observer.event({ kind, level, message: message(), mac: client.mac, ip: ip === null ? null : intToIpv4(ip), detail: { ...this.detail(client, context), ...extra } });
  }

  private detail(client: ClientRequest, context: ServingContext): Record<string, unknown> {
    return clientEventDetail(client, context, this.deps.archmap, 'server');
  }
}
