import type { SnapshotRecord, ZoneSnapshot } from '../../../../src-main/dns/server/zone-snapshot.js';

/** A record with defaults, for zone tests. */
export function rec(fqdn: string, type: SnapshotRecord['type'], value: string, extra: Partial<SnapshotRecord> = {}): SnapshotRecord {
  return { fqdn, type, value, ttl: 300, priority: null, subnet: null, ...extra };
}

/** A snapshot of bootwright.local served on 192.0.2.0/24 (.1) and 198.51.100.0/24 (.1). */
export function snapshot(parts: Partial<ZoneSnapshot> = {}): ZoneSnapshot {
  return {
    version: 1,
    serial: 1000,
    localDomain: 'bootwright.local',
    serverName: 'pxe',
    records: [],
    derived: [],
    addresses: [
      { interface: 'eth0', subnet: '192.0.2.0/24', address: '192.0.2.1', source: 'detected', served: true },
      { interface: 'eth1', subnet: '198.51.100.0/24', address: '198.51.100.1', source: 'detected', served: true },
    ],
    upstreams: [],
    ...parts,
  };
}
