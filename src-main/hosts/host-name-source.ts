import type { NameSource, NameSourceEntry } from '../dns/name-source.js';
import type { HostService } from './host-service.js';

/**
 * The hosts that have both a hostname and an IPv4 address, as DNS names
 * (`<hostname>.<local_domain>` A and PTR records). Disabled and discovered
 * hosts are included: the name follows the machine, not its boot choice.
 */
export function hostNameSource(hosts: Pick<HostService, 'all' | 'onChange'>): NameSource {
  return {
    name: 'hosts',
    *entries(): Iterable<NameSourceEntry> {
      for (const host of hosts.all()) {
        if (host.hostname !== null && host.ip !== null) yield { hostname: host.hostname, ipv4: host.ip };
      }
    },
    onChange: (listener) => hosts.onChange(listener),
  };
}
