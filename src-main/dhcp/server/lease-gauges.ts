import type { Metrics } from '../../metrics/metrics.js';
import { parseIpv4 } from '../../network/ip-math.js';
import type { DhcpSettings } from '../dhcp-settings.js';
import type { LeaseDatabase } from '../leases.js';

/** Active leases and pool size per range, computed when metrics are scraped. */
export function registerLeaseGauges(ctx: { metrics: Metrics; settings: DhcpSettings; leases: LeaseDatabase }): void {
  ctx.metrics.gauge({
    name: 'bootwright_dhcp_active_leases',
    help: 'Active DHCP leases per range',
    labelNames: ['subnet', 'range'] as const,
    collect() {
      this.reset();
      const now = Date.now();
      const ranges = ctx.settings.subnets().flatMap((entry) =>
        entry.config.ranges.map((range) => ({ subnet: entry.subnet.cidr, label: `${range.start}-${range.end}`, start: parseIpv4(range.start) ?? 0, end: parseIpv4(range.end) ?? -1, count: 0 })),
      );
      for (const lease of ctx.leases.all()) {
        if (lease.expires <= now) continue;
        const hit = ranges.find((range) => lease.ip >= range.start && lease.ip <= range.end);
        if (hit) hit.count += 1;
      }
      for (const range of ranges) this.labels(range.subnet, range.label).set(range.count);
    },
  });
  ctx.metrics.gauge({
    name: 'bootwright_dhcp_pool_size',
    help: 'Addresses per DHCP range',
    labelNames: ['subnet', 'range'] as const,
    collect() {
      this.reset();
      for (const entry of ctx.settings.subnets()) {
        for (const range of entry.config.ranges) {
          const size = (parseIpv4(range.end) ?? 0) - (parseIpv4(range.start) ?? 0) + 1;
          this.labels(entry.subnet.cidr, `${range.start}-${range.end}`).set(Math.max(0, size));
        }
      }
    },
  });
}

/** The lease journal's batches: how long a durable write takes (the ACK latency it adds) and how many records each carries. */
export function observeJournal(ctx: { metrics: Metrics; leases: LeaseDatabase }): void {
  const seconds = ctx.metrics.histogram({
    name: 'bootwright_dhcp_journal_sync_seconds',
    help: 'Lease journal batches: seconds until the batch is durable (write with O_DSYNC, or write + fdatasync)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
  const records = ctx.metrics.histogram({
    name: 'bootwright_dhcp_journal_batch_records',
    help: 'Lease journal batches: records per batch',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  });
  ctx.leases.observeBatches((count, elapsed) => {
    seconds.observe(elapsed);
    records.observe(count);
  });
}
