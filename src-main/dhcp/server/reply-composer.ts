import type { Archmap } from '../archmap.js';
import { encodeCustomOption } from '../dhcp-options.js';
import type { DhcpSettings } from '../dhcp-settings.js';
import type { DhcpReservation } from '../reservations.js';
import { intToIpv4, isHostIn, parseIpv4 } from '../../network/ip-math.js';
import { ROUTER_NONE } from '../dhcp-contract.js';
import { bootFields, chooseBootInfo } from './boot-info.js';
import type { ClientRequest } from './client-request.js';
import type { DhcpOption, DhcpPacket } from './dhcp-codec.js';
import { OPT } from '../dhcp-options.js';
import type { ServingContext } from './dhcp-types.js';
import { buildReply, ipBytes, ipsBytes, uint32Bytes } from './reply-builder.js';

export interface ReplyComposerDeps {
  settings: DhcpSettings;
  archmap: Archmap;
  /** `http(s)://<address>:<port>` of the HTTP boot server. */
  httpBase: (serverAddress: string) => string;
  /** Default DNS servers for a subnet (our address while the DNS service runs), or empty. */
  defaultDnsServers: (serverAddress: string) => string[];
  /** Default domain name (the DNS local domain), or null. */
  defaultDomain: () => string | null;
}

/** A subnet's options, encoded once per settings change instead of per packet. */
interface SubnetOptions {
  fixed: DhcpOption[];
  custom: DhcpOption[];
  customCodes: ReadonlySet<number>;
  leaseSeconds: number;
  leaseTimes: DhcpOption[];
}

/**
 * Builds OFFERs and ACKs (RFC 2131 §4.3.1 table 3): the subnet's options
 * (router, DNS, domain, NTP, custom ones, which override built-in ones),
 * the reservation's hostname and options, lease times, and the PXE boot
 * information for boot-capable clients.
 */
export class ReplyComposer {
  private readonly deps: ReplyComposerDeps;
  private cache = new Map<string, SubnetOptions>();

  constructor(deps: ReplyComposerDeps) {
    this.deps = deps;
    this.reload();
  }

  reload(): void {
    const cache = new Map<string, SubnetOptions>();
    const defaultLease = this.deps.settings.current().default_lease_time_seconds;
    for (const entry of this.deps.settings.subnets()) {
      const fixed: DhcpOption[] = [{ code: OPT.SUBNET_MASK, data: uint32Bytes(entry.subnet.mask) }];
      if (entry.config.router !== null && entry.config.router !== ROUTER_NONE) fixed.push({ code: OPT.ROUTER, data: ipBytes(entry.config.router) });
      if (entry.subnet.prefix < 31) fixed.push({ code: OPT.BROADCAST_ADDRESS, data: uint32Bytes(entry.subnet.broadcast) });
      if (entry.config.ntp_servers.length > 0) fixed.push({ code: OPT.NTP_SERVERS, data: ipsBytes(entry.config.ntp_servers) });
      const custom = entry.config.options.map((option) => ({ code: option.code, data: encodeCustomOption(option) }));
      const leaseSeconds = entry.config.lease_time_seconds ?? defaultLease;
      cache.set(entry.subnet.cidr, { fixed, custom, customCodes: new Set(custom.map((o) => o.code)), leaseSeconds, leaseTimes: leaseTimeOptions(leaseSeconds) });
    }
    this.cache = cache;
  }

  /** The lease time on the context's subnet. */
  leaseSeconds(context: ServingContext): number {
    const subnet = context.subnet!;
    return subnet.config.lease_time_seconds ?? this.deps.settings.current().default_lease_time_seconds;
  }

  /** An OFFER or ACK; `ip` and `leaseSeconds` are null for the ACK of an INFORM. */
  compose(
    client: ClientRequest,
    context: ServingContext,
    type: number,
    ip: number | null,
    leaseSeconds: number | null,
    reservation: DhcpReservation | undefined,
  ): DhcpPacket {
    const subnet = context.subnet!;
    const cached = this.cache.get(subnet.subnet.cidr);
    const reservationOptions = reservation && reservation.options.length > 0 ? reservation.options.map((o) => ({ code: o.code, data: encodeCustomOption(o) })) : [];
    const overridden: ReadonlySet<number> =
      reservationOptions.length === 0 ? (cached?.customCodes ?? EMPTY_CODES) : new Set([...(cached?.customCodes ?? []), ...reservationOptions.map((o) => o.code)]);
    const required: DhcpOption[] = [];
    if (leaseSeconds !== null) required.push(...(cached && cached.leaseSeconds === leaseSeconds ? cached.leaseTimes : leaseTimeOptions(leaseSeconds)));
    for (const option of cached?.fixed ?? []) if (!overridden.has(option.code)) required.push(option);
    if (subnet.config.router === null && !overridden.has(OPT.ROUTER)) {
      const router = defaultRouter(client, context);
      if (router !== null) required.push({ code: OPT.ROUTER, data: uint32Bytes(router) });
    }
    const dns = subnet.config.dns_servers ?? this.deps.defaultDnsServers(context.serverAddress);
    if (dns.length > 0 && !overridden.has(OPT.DNS_SERVERS)) required.push({ code: OPT.DNS_SERVERS, data: ipsBytes(dns) });
    const domain = subnet.config.domain_name ?? this.deps.defaultDomain();
    if (domain && !overridden.has(OPT.DOMAIN_NAME)) required.push({ code: OPT.DOMAIN_NAME, data: Buffer.from(domain, 'latin1') });
    if (reservation?.hostname && !overridden.has(OPT.HOSTNAME)) required.push({ code: OPT.HOSTNAME, data: Buffer.from(reservation.hostname, 'latin1') });
    const boot = chooseBootInfo(client, context.serverAddress, {
      archmap: this.deps.archmap,
      httpBase: this.deps.httpBase,
      bootFileOverride: reservation?.boot_file ?? null,
    });
    let siaddr = '0.0.0.0';
    let sname = '';
    let file = '';
    if (boot) {
      const fields = bootFields(boot, client, context.serverAddress, { proxy: false });
      siaddr = fields.siaddr;
      sname = fields.sname;
      file = fields.file;
      required.push(...fields.options.filter((option) => !overridden.has(option.code)));
    }
    const custom =
      reservationOptions.length === 0 ? (cached?.custom ?? []) : [...(cached?.custom ?? []).filter((o) => !reservationOptions.some((r) => r.code === o.code)), ...reservationOptions];
    return buildReply(client, {
      type,
      serverId: context.serverAddress,
      ...(ip !== null ? { yiaddr: intToIpv4(ip) } : {}),
      siaddr,
      sname,
      file,
      required,
      optional: custom,
    });
  }
}

const EMPTY_CODES: ReadonlySet<number> = new Set();

/** Options 51, 58 and 59 for a lease time: T1 = ½, T2 = ⅞ (RFC 2131 §4.4.5). */
function leaseTimeOptions(seconds: number): DhcpOption[] {
  return [
    { code: OPT.LEASE_TIME, data: uint32Bytes(seconds) },
    { code: OPT.RENEWAL_TIME, data: uint32Bytes(Math.floor(seconds / 2)) },
    { code: OPT.REBINDING_TIME, data: uint32Bytes(Math.floor(seconds * 0.875)) },
  ];
}

/**
 * The gateway a subnet without a configured router gets (dnsmasq's default):
 * our own address when it is on the client's subnet, else the relay's
 * (giaddr sits on the client's segment and is normally its router). Without
 * option 3 the Debian installer stops to ask "Continue without a default
 * route?", so an unattended install needs one.
 */
function defaultRouter(client: ClientRequest, context: ServingContext): number | null {
  const subnet = context.subnet;
  if (!subnet) return null;
  const own = parseIpv4(context.serverAddress);
  if (own !== null && isHostIn(subnet.subnet, own)) return own;
  if (client.giaddr !== 0 && isHostIn(subnet.subnet, client.giaddr)) return client.giaddr;
  return null;
}
