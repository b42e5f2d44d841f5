import { afterEach, describe, expect, it } from 'vitest';
import type { MetricsSnapshot } from '../../../src-main/metrics/metrics.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, ROLE_HEADER, roleAuthenticator } from '../settings/role-authenticator.js';

const opened: TestCore[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function core(): Promise<TestCore> {
  const t = await createTestCore({ authenticator: roleAuthenticator });
  opened.push(t);
  return t;
}

/** Sample lines of the text format: `name{labels} value`, comments skipped. */
function samples(text: string): { name: string; labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      return { name: m[1]!, labels: m[2] ?? '', value: Number(m[3]) };
    });
}

describe('GET /api/v1/metrics', () => {
  it('returns a JSON snapshot with process, HTTP, service and event metrics', async () => {
    const t = await core();
    await t.core.http.inject({ method: 'GET', url: '/api/v1/services', headers: as('viewer') });
    t.core.kernel.events.emit({ kind: 'test.ping', level: 'warn', message: 'ping' });
    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/metrics', headers: as('viewer') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const snapshot = res.json().data as MetricsSnapshot;
    const family = (name: string) => snapshot.metrics.find((m) => m.name === name);

    expect(family('process_cpu_seconds_total')?.type).toBe('counter');
    expect(family('bootwright_http_requests_total')?.values).toContainEqual({
      labels: { method: 'GET', route: '/api/v1/services', status: '200' },
      value: 1,
    });
    const histogram = family('bootwright_http_request_duration_seconds');
    expect(histogram?.type).toBe('histogram');
    expect(histogram?.values.some((v) => v.sample === 'bootwright_http_request_duration_seconds_bucket' && v.labels.le === '+Inf')).toBe(true);
    expect(family('bootwright_service_state')?.values).toContainEqual({ labels: { service: 'http', state: 'stopped' }, value: 1 });
    expect(family('bootwright_events_total')?.values).toContainEqual({ labels: { kind: 'test.ping', level: 'warn' }, value: 1 });
  });

  it('returns the Prometheus text format with ?format=prometheus or Accept: text/plain', async () => {
    const t = await core();
    await t.core.start();
    await t.core.http.inject({ method: 'GET', url: '/api/v1/nowhere', headers: as('viewer') });
    for (const request of [
      { url: '/api/v1/metrics?format=prometheus', headers: as('viewer') },
      { url: '/api/v1/metrics', headers: { ...as('viewer'), accept: 'text/plain;version=0.0.4;q=0.9,*/*;q=0.1' } },
    ]) {
      const res = await t.core.http.inject({ method: 'GET', ...request });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.body).toContain('# TYPE bootwright_http_requests_total counter');
      const lines = samples(res.body);
      expect(lines).toContainEqual({ name: 'bootwright_service_state', labels: '{service="http",state="running"}', value: 1 });
      expect(lines).toContainEqual({ name: 'bootwright_http_requests_total', labels: '{method="GET",route="unmatched",status="404"}', value: 1 });
      expect(lines.find((l) => l.name === 'process_resident_memory_bytes')?.value).toBeGreaterThan(0);
    }
  });

  it('counts into its own registry: two cores in one process do not share counters', async () => {
    const a = await core();
    const b = await core();
    a.core.kernel.events.emit({ kind: 'test.only_a', message: 'a' });
    const text = await b.core.kernel.metrics.prometheus();
    expect(text).not.toContain('test.only_a');
    expect(await a.core.kernel.metrics.prometheus()).toContain('kind="test.only_a"');
  });

  it('gives servers their metric once per name (a restarted server keeps counting)', async () => {
    const t = await core();
    const first = t.core.kernel.metrics.counter({ name: 'bootwright_test_total', help: 'test' });
    first.inc();
    const again = t.core.kernel.metrics.counter({ name: 'bootwright_test_total', help: 'test' });
    again.inc();
    expect(samples(await t.core.kernel.metrics.prometheus())).toContainEqual({ name: 'bootwright_test_total', labels: '', value: 2 });
  });
});

describe('GET /metrics (root, for scrapers)', () => {
  it('serves Prometheus text to an authenticated scraper over a real socket', async () => {
    const t = await core();
    await t.core.start();
    const res = await fetch(`${t.core.url()}/metrics`, { headers: { [ROLE_HEADER]: 'viewer', accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = samples(await res.text());
    expect(lines.some((l) => l.name === 'bootwright_service_state')).toBe(true);

    const json = await fetch(`${t.core.url()}/metrics?format=json`, { headers: { [ROLE_HEADER]: 'viewer' } });
    expect(((await json.json()) as { data: MetricsSnapshot }).data.metrics.length).toBeGreaterThan(5);
  });

  it('needs a session or token', async () => {
    const t = await core();
    const res = await t.core.http.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(401);
  });
});
