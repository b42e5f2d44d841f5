/**
 * A feed of derived DNS names from another part of the app (hosts with a
 * hostname and address, active DHCP leases with a hostname).
 *
 * Each entry answers as an A record `<hostname>.<local_domain>` and a PTR record
 * in `in-addr.arpa` — what dnsmasq users expect. Explicit DNS records win over
 * derived names of the same name.
 */
export interface NameSourceEntry {
  /** A single label or a dotted name relative to the local domain (no trailing dot). */
  hostname: string;
  /** Dotted-quad IPv4 address. */
  ipv4: string;
}

export interface NameSource {
  /** Short identifier for logs, e.g. `hosts` or `dhcp-leases`. */
  readonly name: string;
  /** The current entries; called again after every change notification. */
  entries(): Iterable<NameSourceEntry>;
  /** Subscribes to changes of `entries()`; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}
