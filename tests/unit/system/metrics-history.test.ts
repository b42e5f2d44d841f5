import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_SERIES, MetricsHistory } from '../../../src-main/system/metrics-history.js';
import type { MetricFamily, MetricsSnapshot } from '../../../src-main/metrics/metrics.js';
import { LogSink } from '../../../src-main/core/logger.js';

function family(name: string, type: MetricFamily['type'], values: MetricFamily['values']): MetricFamily {
  return { name, help: '', type, values };
}

/** A metrics source whose values the test sets, and a clock the test moves. */
function rig() {
  let now = Date.parse('2026-11-24T12:00:00.000Z');
  let leases = 10;
  let served = { ok: 0, fallback: 0 };
  let dnsQueries = 0;
  const source = {
    snapshot: async (): Promise<MetricsSnapshot> => ({
      generated_at: new Date(now).toISOString(),
      metrics: [
        family('bootwright_dhcp_active_leases', 'gauge', [{ labels: { subnet: 'a' }, value: leases }, { labels: { subnet: 'b' }, value: 1 }]),
        family('bootwright_boot_scripts_served_total', 'counter', [
          { labels: { script: 'host', outcome: 'ok' }, value: served.ok },
          { labels: { script: 'host', outcome: 'fallback' }, value: served.fallback },
        ]),
        family('bootwright_dns_queries_total', 'counter', [{ labels: {}, value: dnsQueries }]),
      ],
    }),
  };
  const history = new MetricsHistory(source, new LogSink({ logDir: null, level: 'error', console: false }).logger(), { intervalMs: 60_000, capacity: 3, now: () => now });
  return {
    history,
    advance(ms: number) {
      now += ms;
    },
    set(values: { leases?: number; ok?: number; fallback?: number; dns?: number }) {
      leases = values.leases ?? leases;
      served = { ok: values.ok ?? served.ok, fallback: values.fallback ?? served.fallback };
      dnsQueries = values.dns ?? dnsQueries;
    },
  };
}

const series = (history: MetricsHistory, name: string) => history.view(60).series.find((entry) => entry.name === name)!.points.map((point) => point.value);

describe('metrics history', () => {
  it('takes gauges as they are and counters as rates per interval (per minute for boots, per second for DNS)', async () => {
    const { history, advance, set } = rig();
    await history.sample();
    advance(60_000);
    set({ leases: 12, ok: 30, fallback: 3, dns: 600 });
    await history.sample();
    expect(series(history, 'dhcp_leases_active')).toEqual([11, 13]);
    expect(series(history, 'boots_ok')).toEqual([null, 30]);
    expect(series(history, 'boots_fallback')).toEqual([null, 3]);
    expect(series(history, 'dns_queries')).toEqual([null, 10]);
    // A metric no server registered has no values, not zeros.
    expect(series(history, 'nfs_bytes')).toEqual([null, null]);
    expect(history.view(60).series.map((entry) => entry.name)).toEqual(HISTORY_SERIES.map((spec) => spec.name));
  });

  it('a counter that went down (a restarted server) has no rate for that interval; the ring keeps its capacity; view looks back as asked', async () => {
    const { history, advance, set } = rig();
    set({ dns: 1000 });
    await history.sample();
    advance(60_000);
    set({ dns: 100 });
    await history.sample();
    advance(60_000);
    set({ dns: 160 });
    await history.sample();
    expect(series(history, 'dns_queries')).toEqual([null, null, 1]);
    advance(60_000);
    await history.sample();
    expect(series(history, 'dns_queries')).toHaveLength(3);
    expect(history.view(1).series[0]!.points).toHaveLength(2);
  });
});

describe('metrics history across restarts', () => {
  const quiet = () => new LogSink({ logDir: null, level: 'error', console: false }).logger();
  const source = (leases: () => number) => ({
    snapshot: async (): Promise<MetricsSnapshot> => ({ generated_at: '', metrics: [family('bootwright_dhcp_active_leases', 'gauge', [{ labels: {}, value: leases() }])] }),
  });

  it('saves at stop and reads the samples back at start, dropping those older than the ring', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bw-history-'));
    try {
      const file = path.join(dir, 'metrics-history.json');
      let now = Date.parse('2026-11-24T12:00:00.000Z');
      let leases = 5;
      const first = new MetricsHistory(source(() => leases), quiet(), { intervalMs: 60_000, capacity: 3, now: () => now, file });
      await first.start();
      for (const value of [6, 7]) {
        now += 60_000;
        leases = value;
        await first.sample();
      }
      await first.stop();

      // Two minutes later a new process: the three saved samples are there, then its own.
      now += 120_000;
      leases = 9;
      const second = new MetricsHistory(source(() => leases), quiet(), { intervalMs: 60_000, capacity: 3, now: () => now, file });
      await second.start();
      await second.stop();
      // The ring keeps 3 minutes: the 12:00 sample (4 min old) is gone.
      expect(second.view(60).series.find((entry) => entry.name === 'dhcp_leases_active')?.points).toEqual([
        { at: '2026-11-24T12:01:00.000Z', value: 6 },
        { at: '2026-11-24T12:02:00.000Z', value: 7 },
        { at: '2026-11-24T12:04:00.000Z', value: 9 },
      ]);
      // A series the file does not know reads as null; one it knows and no longer exists is left out.
      const saved = JSON.parse(await readFile(file, 'utf8')) as { series: string[] };
      expect(saved.series).toEqual(HISTORY_SERIES.map((spec) => spec.name));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts afresh from a damaged file, and never from half of one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bw-history-'));
    try {
      const file = path.join(dir, 'metrics-history.json');
      const now = Date.parse('2026-11-24T12:00:00.000Z');
      for (const damaged of ['{"version":1,"series":["dhcp_leases_active"],"points":[{"at":1,"values":["x"]}]}', '{"version":2}', 'not json', '[]']) {
        await writeFile(file, damaged);
        const history = new MetricsHistory(source(() => 1), quiet(), { intervalMs: 60_000, capacity: 3, now: () => now, file });
        await history.start();
        await history.stop();
        expect(history.view(60).series.find((entry) => entry.name === 'dhcp_leases_active')?.points, damaged).toEqual([{ at: '2026-11-24T12:00:00.000Z', value: 1 }]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
