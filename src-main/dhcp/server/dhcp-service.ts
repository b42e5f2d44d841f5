import dgram from 'node:dgram';
import type { Kernel } from '../../core/area.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AccessPolicy } from '../access-policy.js';
import type { Archmap } from '../archmap.js';
import type { DhcpMode } from '../dhcp-contract.js';
import type { DhcpSettings } from '../dhcp-settings.js';
import type { LeaseDatabase } from '../leases.js';
import type { Reservations } from '../reservations.js';
import { intToIpv4, parseIpv4, subnetHas } from '../../network/ip-math.js';
import type { ManagedService } from '../../services/service-manager.js';
import { describeListenError } from '../../services/listen-error.js';
import { applyServiceSettings } from '../../services/settings-apply.js';
import { readClientRequest, type ClientRequest } from './client-request.js';
import { decode, DhcpDecodeError, encode } from './dhcp-codec.js';
import { DhcpEngine } from './dhcp-engine.js';
import type { OutgoingReply, PingProbe, ServingContext } from './dhcp-types.js';
import { DhcpObserver } from './dhcp-observer.js';
import { MSG } from '../dhcp-options.js';
import { RogueGuard, type GuardPlan } from './rogue-guard.js';
import type { DhcpProber } from './rogue-probe.js';
import { isProbeRequest } from './rogue-probe-packet.js';
import { ProxyResponder } from './proxy-responder.js';
import { systemPingProbe } from './ping-check.js';
import { SERVER_PORT } from './reply-addressing.js';
import { errnoCode, openIcmpv6, type Icmpv6Opener } from './icmpv6-socket.js';
import { RaResponder } from './ra-responder.js';

export const PXE_PORT = 4011;

/** What the DHCP server works with: ground services of the kernel and the DHCP area's domain parts. */
export interface DhcpServiceDeps extends Pick<Kernel, 'log' | 'events' | 'metrics' | 'network' | 'services'> {
  settings: DhcpSettings;
  leases: LeaseDatabase;
  reservations: Reservations;
  access: AccessPolicy;
  archmap: Archmap;
}

export interface DhcpServiceOptions {
  /** `http(s)://<address>:<port>` of the HTTP boot server for a given address of ours. */
  httpBase: (serverAddress: string) => string;
  /** The DNS local domain (option 15 default), or null. */
  localDomain?: () => string | null;
  /** Replaces the system ping (tests). */
  ping?: PingProbe;
  /** Ports (tests on loopback use unprivileged ones). */
  ports?: { server?: number; pxe?: number };
  /** Expiry sweep interval. */
  sweepMs?: number;
  /** Replaces the rogue-DHCP probe's sockets (tests). */
  prober?: DhcpProber;
  /** How often a served server-mode interface is probed again for another DHCP server; 0: never. */
  recheckMs?: number;
  /** Replaces the raw ICMPv6 sockets of the Router Advertisements (tests). */
  icmpv6?: Icmpv6Opener;
}

/** An interface in server or proxy mode, with our address on it and its sockets. */
interface ServingInterface {
  name: string;
  mode: Exclude<DhcpMode, 'off'>;
  address: string;
  addressInt: number;
  /** Bound to `<address>:67`: receives unicast to us, sends our broadcasts out of this interface. */
  socket: dgram.Socket;
  /** Bound to `<address>:4011` for PXE boot server requests. */
  pxeSocket: dgram.Socket;
  context: ServingContext;
}

const SWEEP_MS = 5_000;
const RECV_BUFFER_BYTES = 4 * 1024 * 1024;
const DOMAIN_CACHE_MS = 5_000;
/** The periodic rogue-DHCP probe: one DISCOVER per served server-mode interface every five minutes. */
const RECHECK_MS = 5 * 60_000;

/**
 * The sockets' "name lookup": replies only ever go to dotted quads we computed,
 * so hand them back as they are, at once — dgram's default (dns.lookup)
 * parses each one again and defers every send by a tick.
 */
function literalAddress(address: string, _family: unknown, callback: (err: Error | null, address: string, family: number) => void): void {
  callback(null, address, 4);
}

/**
 * The DHCP service (server and proxyDHCP modes per interface).
 *
 * Node's dgram can neither bind to a device nor tell which interface a
 * broadcast came in on, so: one socket on 0.0.0.0:67 receives broadcasts;
 * one socket per served interface, bound to its address, receives unicast
 * to that address and sends — Linux sends a limited broadcast from a socket
 * bound to an interface address out of that interface, not along the default
 * route. A broadcast from a client without an address is answered once per
 * served interface, each answer from that interface's subnet and leaving
 * through it; the client only ever sees the one for its own link. Relayed
 * requests pick their subnet by giaddr (RFC 2131 §4.3.1). See docs/dhcp.md.
 */
export class DhcpService implements ManagedService {
  readonly name = 'dhcp';
  readonly description = 'DHCP: addresses and PXE boot information (server), or boot information beside another DHCP server (proxy)';
  private readonly deps: DhcpServiceDeps;
  private readonly options: DhcpServiceOptions;
  private readonly log: Logger;
  private readonly observer: DhcpObserver;
  private readonly engine: DhcpEngine;
  private readonly proxy: ProxyResponder;
  /** The rogue-DHCP guard: the start's probe, POST /dhcp/probe, foreign servers seen while serving. */
  readonly guard: RogueGuard;
  private recheckTimer: NodeJS.Timeout | null = null;
  private wildcard: dgram.Socket | null = null;
  private wildcardPxe: dgram.Socket | null = null;
  private serving: ServingInterface[] = [];
  private ownAddresses: Set<number> = new Set();
  private sweepTimer: NodeJS.Timeout | null = null;
  private bound: string[] = [];
  private networkKey = '';
  /** The next start is a rebind for a network change: serve first, probe while serving. */
  private rebindingForNetwork = false;
  /** Whether each interface had a link at the last look (false → true: probe it). */
  private readonly linkUp = new Map<string, boolean>();
  private domainCache: { value: string | null; at: number } = { value: null, at: 0 };
  private dnsCache: { running: boolean; at: number } = { running: false, at: 0 };
  /** Router Advertisements per served interface (docs/dhcp.md, "IPv6 Router Advertisements"). */
  private routerAds = new Map<string, RaResponder>();
  /** Counts starts: a probe that outlived a restart does not act on the new sockets. */
  private generation = 0;
  /** Why an interface sends no Router Advertisements although the setting wants them (the service notice). */
  private raNotices = new Map<string, string>();

  constructor(deps: DhcpServiceDeps, options: DhcpServiceOptions) {
    this.deps = deps;
    this.options = options;
    this.log = deps.log.scope('dhcp');
    this.observer = new DhcpObserver({ events: deps.events, metrics: deps.metrics });
    this.guard = new RogueGuard({ events: deps.events, network: deps.network, settings: deps.settings, log: this.log }, options.prober ? { prober: options.prober } : {});
    const ping = options.ping ?? systemPingProbe(this.log);
    const send = (reply: OutgoingReply) => this.send(reply);
    this.engine = new DhcpEngine({
      settings: deps.settings,
      leases: deps.leases,
      reservations: deps.reservations,
      access: deps.access,
      archmap: deps.archmap,
      observer: this.observer,
      httpBase: options.httpBase,
      defaultDnsServers: (address) => (this.dnsRunning() ? [address] : []),
      defaultDomain: () => this.localDomain(),
      ownAddresses: () => this.ownAddresses,
      send,
      ping,
    });
    this.proxy = new ProxyResponder({
      access: deps.access,
      archmap: deps.archmap,
      reservations: deps.reservations,
      observer: this.observer,
      httpBase: options.httpBase,
      send,
    });
    deps.settings.onChange((next, previous) => this.settingsChanged(next.interfaces.some((i) => i.mode !== 'off'), previous.interfaces.some((i) => i.mode !== 'off')));
    deps.network.onChange(() => this.networkChanged());
  }

  /** Starts with the app once an interface is in server or proxy mode (unless the user turned auto-start off). */
  get defaultAutoStart(): boolean {
    return this.deps.settings.anyInterfaceEnabled();
  }

  async start(): Promise<void> {
    const settings = this.deps.settings.current();
    const enabled = settings.interfaces.filter((iface) => iface.mode !== 'off');
    if (enabled.length === 0) {
      throw new Error('no interface is in server or proxy mode; choose one with PUT /api/v1/services/dhcp {"interfaces":[{"name":"eth1","mode":"server"}]}');
    }
    const nics = this.deps.network.refresh();
    this.ownAddresses = new Set(nics.flatMap((nic) => nic.addresses.filter((a) => a.family === 'ipv4').map((a) => parseIpv4(a.address) ?? 0)));
    this.networkKey = this.interfaceKey();
    for (const nic of nics) this.linkUp.set(nic.name, nic.link !== 'down');
    this.engine.reload();
    const ports = { server: this.options.ports?.server ?? SERVER_PORT, pxe: this.options.ports?.pxe ?? PXE_PORT };
    const plans: { name: string; mode: Exclude<DhcpMode, 'off'>; address: string }[] = [];
    for (const iface of enabled) {
      const nic = nics.find((candidate) => candidate.name === iface.name);
      // An interface without a link keeps its address (the network service reads it from the kernel):
      // it is bound now, so the first DISCOVER after the cable goes in is answered.
      const addresses = nic?.addresses.filter((a) => a.family === 'ipv4') ?? [];
      const first = addresses[0];
      if (!first) {
        // Not an error: the service waits (its notice says for what) and binds when the interface gets an address.
        this.log.warn(`dhcp: ${this.deps.network.waitingReasons([iface.name]).join('; ') || `${iface.name}: not ready`}; serving it once it is`);
        continue;
      }
      // In server mode prefer the address inside a configured subnet.
      const inSubnet = addresses.find((a) => this.deps.settings.subnetFor(parseIpv4(a.address) ?? 0) !== undefined);
      const chosen = iface.mode === 'server' ? (inSubnet ?? first) : first;
      if (iface.mode === 'server' && !inSubnet) {
        this.log.warn(`dhcp: no configured subnet holds ${iface.name}'s address ${chosen.address}; its clients get no address (relayed ones still do)`);
      }
      plans.push({ name: iface.name, mode: iface.mode as Exclude<DhcpMode, 'off'>, address: chosen.address });
    }
    // The rogue-DHCP guard: before the sockets open (so our own server cannot answer), probe the server-mode
    // interfaces. A rebind for a network change (an address came with a link) must serve at once: it keeps
    // the last verdicts' blocks and probes the interfaces once they are served (docs/dhcp.md, "On link-up").
    const probeFirst = !this.rebindingForNetwork;
    this.rebindingForNetwork = false;
    let refusals: string[] = [];
    if (probeFirst) {
      const { blocked, verdicts } = await this.guard.check(plans.filter((p) => p.mode === 'server'));
      refusals = verdicts.filter((v) => blocked.has(v.interface)).map((v) => v.message);
      for (const message of refusals) this.log.warn(`dhcp: ${message}`);
      plans.splice(0, plans.length, ...plans.filter((p) => !blocked.has(p.name)));
    } else {
      const blocked = this.guard.blockedNow();
      plans.splice(0, plans.length, ...plans.filter((p) => !blocked.has(p.name)));
    }
    // Every interface with an address refused (a foreign server answers on each): failed, naming them. Interfaces
    // still waiting for an address are not refusals: with none planned at all the service runs and waits.
    if (plans.length === 0 && refusals.length > 0) throw new Error(refusals.join(' '));

    this.wildcard = await this.bind('0.0.0.0', ports.server, (msg, rinfo) => this.receive(msg, rinfo, null, false));
    this.wildcardPxe = await this.bind('0.0.0.0', ports.pxe, (msg, rinfo) => this.receive(msg, rinfo, null, true));
    for (const plan of plans) {
      const addressInt = parseIpv4(plan.address)!;
      const context: ServingContext = {
        interfaceName: plan.name,
        serverAddress: plan.address,
        serverId: addressInt,
        subnet: this.deps.settings.subnetFor(addressInt) ?? null,
      };
      const entry = { name: plan.name, mode: plan.mode, address: plan.address, addressInt, context } as ServingInterface;
      entry.socket = await this.bind(plan.address, ports.server, (msg, rinfo) => this.receive(msg, rinfo, entry, false));
      entry.pxeSocket = await this.bind(plan.address, ports.pxe, (msg, rinfo) => this.receive(msg, rinfo, entry, true));
      this.serving.push(entry);
    }
    this.bound = [`udp 0.0.0.0:${ports.server}`, `udp 0.0.0.0:${ports.pxe}`, ...plans.flatMap((p) => [`udp ${p.address}:${ports.server} (${p.name}, ${p.mode})`, `udp ${p.address}:${ports.pxe} (${p.name})`])];
    this.sweepTimer = setInterval(() => this.sweep(), this.options.sweepMs ?? SWEEP_MS);
    this.sweepTimer.unref();
    this.startRouterAdvertisements(plans);
    if (!probeFirst && this.serverPlans().length > 0) {
      this.probeWhileServing(this.serverPlans(), 'after a network change');
    }
    const recheckMs = this.options.recheckMs ?? RECHECK_MS;
    if (recheckMs > 0) {
      this.recheckTimer = setInterval(() => this.probeWhileServing(this.serverPlans(), 'periodic'), recheckMs);
      this.recheckTimer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
    this.generation += 1;
    for (const responder of this.routerAds.values()) responder.stop();
    this.routerAds.clear();
    this.raNotices.clear();
    const sockets = [this.wildcard, this.wildcardPxe, ...this.serving.flatMap((s) => [s.socket, s.pxeSocket])].filter((s): s is dgram.Socket => !!s);
    this.wildcard = null;
    this.wildcardPxe = null;
    this.serving = [];
    this.bound = [];
    await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve();
      }
    })));
    await this.deps.leases.durable().catch(() => undefined);
  }

  listenAddresses(): string[] {
    return this.bound;
  }

  /** What the service waits for: each DHCP interface without a link or an address (`br0: no link (cable unplugged?)`). */
  notice(): string | null {
    const waiting = this.deps.network.noticeFor(this.deps.settings.current().interfaces.filter((i) => i.mode !== 'off').map((i) => i.name));
    // Server-mode interfaces the guard keeps unserved (blocked at the start, or withdrawn while serving): its message says why and what to do.
    const serverMode = new Set(this.deps.settings.current().interfaces.filter((i) => i.mode === 'server').map((i) => i.name));
    const blocked = this.guard.status().interfaces.filter((v) => v.state === 'blocked' && serverMode.has(v.interface)).map((v) => v.message);
    const notes = [waiting, ...blocked, ...this.raNotices.values()].filter((note): note is string => !!note);
    return notes.length > 0 ? notes.join('; ') : null;
  }

  /**
   * Router Advertisements (lifetime 0, no prefix, M=O=0) on the served
   * interfaces the `ipv6_ra` setting names: `auto` server mode only — in
   * proxy mode another router may own the segment, and iPXE takes the first
   * RA it gets, so ours could hide that router's prefix and DHCPv6 flags;
   * `always` proxy mode too. A socket that cannot open (no CAP_NET_RAW, no
   * addon) is a notice, never a failure: DHCP serves as before.
   */
  private startRouterAdvertisements(plans: readonly { name: string; mode: Exclude<DhcpMode, 'off'> }[]): void {
    const setting = this.deps.settings.current().ipv6_ra;
    if (setting === 'off') return;
    const open = this.options.icmpv6 ?? openIcmpv6;
    const nics = this.deps.network.list();
    for (const plan of plans) {
      if (plan.mode === 'proxy' && setting !== 'always') continue;
      const nic = nics.find((candidate) => candidate.name === plan.name);
      if (nic?.internal) continue;
      const responder = new RaResponder(plan.name, nic?.mac ?? null, {
        open,
        log: this.log,
        ownAddresses: () => new Set(this.deps.network.list().flatMap((n) => n.addresses.filter((a) => a.family === 'ipv6').map((a) => a.address))),
        onForeignRouter: (name, source) => {
          const message = `${name}: another IPv6 router advertises here (${source}); sending no Router Advertisements on ${name}, iPXE follows that router`;
          this.log.warn(`dhcp: ${message}`);
          this.raNotices.set(name, message);
        },
      });
      try {
        responder.start();
        this.routerAds.set(plan.name, responder);
      } catch (err) {
        const code = errnoCode(err);
        const why = code === 'EPERM' || code === 'EACCES'
          ? 'raw sockets are not permitted (run as root or grant CAP_NET_RAW)'
          : errorMessage(err);
        const message = `${plan.name}: no IPv6 Router Advertisements (${why}); iPXE waits for its IPv6 autoconfiguration timeout at each boot stage`;
        this.log.warn(`dhcp: ${message}`);
        this.raNotices.set(plan.name, message);
      }
    }
  }

  private bind(address: string, port: number, onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo) => void): Promise<dgram.Socket> {
    return new Promise((resolve, reject) => {
      // reuseAddr: 0.0.0.0:67 and <address>:67 are bound side by side.
      // A large receive buffer (capped by net.core.rmem_max) rides out event-loop pauses under load.
      const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true, recvBufferSize: RECV_BUFFER_BYTES, lookup: literalAddress });
      const onError = (err: Error) => {
        socket.close();
        reject(new Error(describeListenError(err, 'udp', address, port), { cause: err }));
      };
      socket.once('error', onError);
      socket.bind({ address, port, exclusive: true }, () => {
        socket.off('error', onError);
        socket.setBroadcast(true);
        socket.on('error', (err) => {
          this.observer.dropped('send_error');
          this.log.warn(`dhcp socket ${address}:${port}: ${errorMessage(err)}`);
        });
        socket.on('message', onMessage);
        resolve(socket);
      });
    });
  }

  private receive(msg: Buffer, rinfo: dgram.RemoteInfo, via: ServingInterface | null, pxePort: boolean): void {
    let client: ClientRequest | null;
    try {
      client = readClientRequest(decode(msg));
    } catch (err) {
      if (!(err instanceof DhcpDecodeError)) this.log.warn(`dhcp: failed to read a packet from ${rinfo.address}: ${errorMessage(err)}`);
      this.observer.dropped('malformed');
      return;
    }
    if (!client) {
      this.observer.dropped('not_request');
      return;
    }
    // A rogue-DHCP probe (ours from POST /dhcp/probe or the periodic check, or another Bootwright's): never answered.
    if (client.clientId !== null && isProbeRequest(client)) {
      this.observer.dropped('not_for_us');
      return;
    }
    if (client.type === MSG.REQUEST && client.serverId !== null && client.giaddr === 0 && !this.ownAddresses.has(client.serverId)) this.foreignRequest(client, via);
    this.observer.received(client.type);
    try {
      this.dispatch(client, rinfo, via, pxePort);
    } catch (err) {
      this.log.error(`dhcp: handling a request from ${client.mac} failed: ${errorMessage(err)}`);
    }
  }

  /** Attributes the request to an interface (or several) and hands it to the server or proxy logic. */
  private dispatch(client: ClientRequest, rinfo: dgram.RemoteInfo, via: ServingInterface | null, pxePort: boolean): void {
    const source = { address: rinfo.address, port: rinfo.port, broadcast: false };
    if (client.giaddr !== 0) {
      // Relayed (RFC 2131 §4.3.1): the relay's address picks the subnet; answers go back to the relay.
      const iface = via ?? this.serving.find((s) => s.mode === 'server') ?? this.serving[0];
      if (!iface) return;
      const context: ServingContext = { ...iface.context, subnet: this.deps.settings.subnetFor(client.giaddr) ?? null };
      return this.serve(iface.mode, client, context, pxePort, source);
    }
    if (via) {
      // Unicast to one of our addresses: the interface is known; a renewing client's ciaddr names its subnet.
      const subnet = client.ciaddr !== 0 ? (this.deps.settings.subnetFor(client.ciaddr) ?? via.context.subnet) : via.context.subnet;
      return this.serve(via.mode, client, { ...via.context, subnet }, pxePort, source);
    }
    if (client.ciaddr !== 0) {
      const home = this.serving.find((s) => s.context.subnet && subnetHas(s.context.subnet.subnet, client.ciaddr));
      if (home) return this.serve(home.mode, client, home.context, pxePort, source);
    }
    // A broadcast: answered on every served interface, each reply leaving through its own interface.
    for (const iface of this.serving) this.serve(iface.mode, client, iface.context, pxePort, source);
  }

  private serve(mode: Exclude<DhcpMode, 'off'>, client: ClientRequest, context: ServingContext, pxePort: boolean, source: { address: string; port: number; broadcast: boolean }): void {
    if (pxePort) {
      // Port 4011 answers PXE boot server requests in both modes (PXE 2.1 §2.2.6).
      const reply = source.address === '0.0.0.0' ? undefined : source;
      return this.proxy.handle(client, context, { pxePort: true, ...(reply ? { source: reply } : {}) });
    }
    if (mode === 'server') return this.engine.handle(client, context);
    return this.proxy.handle(client, context, { pxePort: false });
  }

  /**
   * A client on a segment we serve asks another server for its address
   * (option 54 names it, RFC 2131 §4.3.2): a foreign DHCP server answers there.
   * Only server mode cares (proxy mode lives beside one by design). The
   * interface: the one the unicast came to, else the one whose subnet holds
   * the requested address, else the only server-mode one (null if several).
   * Relayed requests are skipped: a relay may forward to several servers.
   */
  private foreignRequest(client: ClientRequest, via: ServingInterface | null): void {
    const servers = this.serving.filter((s) => s.mode === 'server');
    if (servers.length === 0) return;
    const requested = client.requestedIp;
    const iface = (via?.mode === 'server' ? via : undefined)
      ?? (requested !== null ? servers.find((s) => s.context.subnet && subnetHas(s.context.subnet.subnet, requested)) : undefined)
      ?? (servers.length === 1 ? servers[0] : undefined);
    this.guard.clientChoseOther(iface?.name ?? null, intToIpv4(client.serverId ?? 0), client.mac);
  }

  /**
   * Probes served server-mode interfaces while they are served; where another
   * DHCP server answers (and `force` is off) server mode is withdrawn from
   * that interface at once (docs/dhcp.md, "While serving").
   */
  private probeWhileServing(plans: readonly GuardPlan[], why: string): void {
    if (plans.length === 0) return;
    const generation = this.generation;
    this.guard.recheck(plans).then(
      (withdraw) => {
        // A restart meanwhile probed (or will probe) again: its own verdicts hold.
        if (generation !== this.generation) return;
        for (const name of withdraw) void this.withdraw(name);
      },
      (err: unknown) => this.log.warn(`dhcp: rogue-DHCP probe ${why} failed: ${errorMessage(err)}`),
    );
  }

  /** Stops answering DHCP on one interface (its sockets close, its RAs stop); TFTP, HTTP and the other interfaces go on. */
  private async withdraw(name: string): Promise<void> {
    const entry = this.serving.find((s) => s.name === name && s.mode === 'server');
    if (!entry) return;
    this.serving = this.serving.filter((s) => s !== entry);
    this.bound = this.bound.filter((line) => !line.includes(`(${name}`));
    this.routerAds.get(name)?.stop();
    this.routerAds.delete(name);
    this.raNotices.delete(name);
    this.log.warn(`dhcp: ${this.guard.status().interfaces.find((v) => v.interface === name)?.message ?? `${name}: another DHCP server answers; server mode withdrawn`}`);
    await Promise.all([entry.socket, entry.pxeSocket].map((socket) => new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve();
      }
    })));
  }

  /** The served server-mode interfaces (the periodic probe's targets). */
  private serverPlans(): GuardPlan[] {
    return this.serving.filter((s) => s.mode === 'server').map((s) => ({ name: s.name, address: s.address }));
  }

  private send(reply: OutgoingReply): void {
    const iface = this.serving.find((s) => s.name === reply.context.interfaceName);
    const socket = reply.viaPxePort ? (iface?.pxeSocket ?? this.wildcardPxe) : (iface?.socket ?? this.wildcard);
    if (!socket) return;
    let bytes: Buffer;
    try {
      bytes = encode(reply.packet);
    } catch (err) {
      this.log.error(`dhcp: cannot encode a ${reply.type}: ${errorMessage(err)}`);
      this.observer.dropped('send_error');
      return;
    }
    // No callback: a failed send surfaces as the socket's 'error' event (counted there), and the hot path allocates nothing more.
    socket.send(bytes, reply.destination.port, reply.destination.address);
    this.observer.sent(reply.type);
  }

  private sweep(): void {
    const now = Date.now();
    this.engine.sweepOffers(now);
    for (const lease of this.deps.leases.sweepExpired(now)) {
      if (!this.observer.wantsEvent('dhcp.lease.expired', 'info', lease.mac)) continue;
      const ip = intToIpv4(lease.ip);
      this.observer.event({ kind: 'dhcp.lease.expired', message: `lease ${ip} of ${lease.mac} expired`, mac: lease.mac, ip, detail: { arch: lease.arch, vendor_class: lease.vendorClass, hostname: lease.hostname } });
    }
  }

  /** Whether the DNS service runs (asked per reply, so cached for a second). */
  private dnsRunning(): boolean {
    const now = Date.now();
    if (now - this.dnsCache.at > 1000) {
      this.dnsCache = { running: this.deps.services.has('dns') && this.deps.services.get('dns').state === 'running', at: now };
    }
    return this.dnsCache.running;
  }

  private localDomain(): string | null {
    const read = this.options.localDomain;
    if (!read) return null;
    const now = Date.now();
    if (now - this.domainCache.at > DOMAIN_CACHE_MS) this.domainCache = { value: read(), at: now };
    return this.domainCache.value;
  }

  private async settingsChanged(enabledNow: boolean, enabledBefore: boolean): Promise<void> {
    // The interfaces decide whether there is anything to serve: the last one turned off stops the
    // service, the first one turned on starts it when auto-start is on — once the app serves
    // (HTTP runs); before that, start-up's auto-start pass takes care of it, so the policy is
    // told nothing "became" runnable.
    const serving = this.deps.services.get('http').state === 'running';
    const runnable = { before: enabledBefore || !serving, now: enabledNow };
    await applyServiceSettings({ services: this.deps.services, name: this.name, changed: true, runnable });
  }

  private networkChanged(): void {
    const state = this.deps.services.get(this.name).state;
    if (state !== 'running' && state !== 'failed') return;
    if (state === 'running') this.probeNewLinks();
    const key = this.interfaceKey();
    if (key === this.networkKey) return;
    this.networkKey = key;
    this.log.info('dhcp: the served interfaces changed; rebinding');
    this.rebindingForNetwork = true;
    this.deps.services.reload(this.name).catch((err: unknown) => this.log.error(`dhcp reload failed: ${errorMessage(err)}`));
  }

  /**
   * A served interface whose link just came up (a cable to another network,
   * or the target machine powering on) is probed for a foreign DHCP server
   * while it is already served: the first DISCOVER is answered at once, and a
   * foreign server found shows as a sighting, an event and a dashboard
   * warning (docs/dhcp.md, "Rogue-DHCP guard", on link-up).
   */
  private probeNewLinks(): void {
    const newlyUp = new Set<string>();
    for (const nic of this.deps.network.list()) {
      const up = nic.link !== 'down';
      if (up && this.linkUp.get(nic.name) === false) newlyUp.add(nic.name);
      this.linkUp.set(nic.name, up);
    }
    // A link just came up: announce at once (a client already soliciting is answered by its next RS anyway).
    for (const name of newlyUp) this.routerAds.get(name)?.announce();
    const plans = this.serverPlans().filter((plan) => newlyUp.has(plan.name));
    if (plans.length === 0) return;
    for (const plan of plans) this.guard.forget(plan.name);
    this.probeWhileServing(plans, 'after link-up');
  }

  /** The IPv4 addresses of the DHCP interfaces: a change means rebinding (a link coming up alone does not: the address was bound). */
  private interfaceKey(): string {
    const names = new Set(this.deps.settings.current().interfaces.filter((i) => i.mode !== 'off').map((i) => i.name));
    return JSON.stringify(
      this.deps.network.list()
        .filter((nic) => names.has(nic.name))
        .map((nic) => [nic.name, nic.addresses.filter((a) => a.family === 'ipv4').map((a) => a.cidr)]),
    );
  }
}
