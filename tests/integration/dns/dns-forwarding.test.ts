import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricFamily } from '../../../src-main/metrics/metrics.js';
import { flagOf, query, rcodeOf, startDnsCore, type DnsCore } from './dns-harness.js';
import { closedPort, FakeUpstream, silentUpstream } from './fake-upstream.js';

let upstream: FakeUpstream;
let t: DnsCore;
let dead: string;

beforeAll(async () => {
  upstream = await new FakeUpstream('127.6.0.1').start();
  dead = `127.0.0.1:${await closedPort()}`;
  // The first upstream is dead: every forward fails over to the second.
  // One worker: the cache assertions count upstream queries, and each worker has its own cache.
  t = await startDnsCore({ upstream: `${dead}, ${upstream.label}`, workers: 1 });
});

afterAll(async () => {
  await t?.close();
  await upstream?.stop();
});

async function metric(name: string): Promise<MetricFamily | undefined> {
  await t.core.area('dns').flushMetrics();
  return (await t.core.kernel.metrics.snapshot()).metrics.find((family) => family.name === name);
}

describe('forwarding', () => {
  it('forwards names outside local data to the upstreams in order, failing over from a dead one, and caches the answer', async () => {
    const first = await query('www.example.com', 'A', { port: t.port });
    expect(rcodeOf(first)).toBe('NOERROR');
    expect(flagOf(first, 'flag_ra')).toBe(true);
    expect(flagOf(first, 'flag_aa')).toBe(false);
    expect(first.answers).toMatchObject([{ type: 'A', data: '192.0.2.80' }]);
    expect(upstream.count('www.example.com')).toBe(1);

    const second = await query('WWW.example.com', 'A', { port: t.port, tcp: true });
    expect(second.questions![0]!.name).toBe('WWW.example.com');
    expect(second.answers).toMatchObject([{ data: '192.0.2.80' }]);
    expect(upstream.count('www.example.com')).toBe(1);
  });

  it('caches negative answers by the SOA minimum', async () => {
    expect(rcodeOf(await query('nx.example.com', 'A', { port: t.port }))).toBe('NXDOMAIN');
    expect(rcodeOf(await query('nx.example.com', 'A', { port: t.port }))).toBe('NXDOMAIN');
    expect(upstream.count('nx.example.com')).toBe(1);
  });

  it('retries over TCP when the upstream truncates, and serves the client TC then the full answer over TCP', async () => {
    const udp = await query('big.example.com', 'TXT', { port: t.port, edns: 1232 });
    expect(flagOf(udp, 'flag_tc')).toBe(true);
    expect(upstream.count('big.example.com', false)).toBe(1);
    expect(upstream.count('big.example.com', true)).toBe(1);
    const tcp = await query('big.example.com', 'TXT', { port: t.port, tcp: true });
    expect(tcp.answers).toHaveLength(6);
    expect(upstream.count('big.example.com')).toBe(2);
  });

  it('gives SERVFAIL when every upstream fails', async () => {
    expect(rcodeOf(await query('fail.example.com', 'A', { port: t.port }))).toBe('SERVFAIL');
  });

  it('never forwards names in the local domain', async () => {
    expect(rcodeOf(await query('unknown.bootwright.local', 'A', { port: t.port }))).toBe('NXDOMAIN');
    expect(upstream.count('unknown.bootwright.local')).toBe(0);
  });

  it('counts queries by type and rcode, forwards, cache hits, upstream failures and latency in the metrics', async () => {
    // Cache answers are timed 1 in 16 (LATENCY_SAMPLE): 16 more make at least one sample.
    for (let i = 0; i < 16; i++) await query('www.example.com', 'A', { port: t.port });
    const queries = await metric('bootwright_dns_queries_total');
    const sample = (labels: Record<string, string>) => queries?.values.find((value) => Object.entries(labels).every(([k, v]) => value.labels[k] === v))?.value ?? 0;
    expect(sample({ type: 'A', rcode: 'NOERROR' })).toBeGreaterThanOrEqual(2);
    expect(sample({ type: 'A', rcode: 'SERVFAIL' })).toBeGreaterThanOrEqual(1);
    expect((await metric('bootwright_dns_forwarded_total'))?.values[0]?.value).toBeGreaterThanOrEqual(3);
    expect((await metric('bootwright_dns_cache_hits_total'))?.values[0]?.value).toBeGreaterThanOrEqual(18);
    const failures = await metric('bootwright_dns_upstream_failures_total');
    expect(failures?.values.find((value) => value.labels.upstream === dead)?.value).toBeGreaterThanOrEqual(3);
    expect(failures?.values.find((value) => value.labels.upstream === upstream.label)?.value).toBeGreaterThanOrEqual(1);
    const latency = await metric('bootwright_dns_query_duration_seconds');
    const count = (path: string) => latency?.values.find((value) => value.sample === 'bootwright_dns_query_duration_seconds_count' && value.labels.path === path)?.value ?? 0;
    expect(count('upstream')).toBeGreaterThanOrEqual(3);
    expect(count('cache')).toBeGreaterThanOrEqual(1);
    expect(await t.core.kernel.metrics.prometheus()).toContain('bootwright_dns_query_duration_seconds_bucket{path="cache",le="0.001"}');
  });
});

describe('forwarding edge cases', () => {
  it('fails over after the per-try timeout when an upstream does not answer', async () => {
    const silent = await silentUpstream('127.6.0.2');
    const other = await startDnsCore({ upstream: `${silent.label} ${upstream.label}` });
    try {
      const answer = await query('www.example.com', 'A', { port: other.port, timeoutMs: 6000 });
      expect(answer.answers).toMatchObject([{ data: '192.0.2.80' }]);
    } finally {
      await other.close();
      await silent.close();
    }
  });
});
