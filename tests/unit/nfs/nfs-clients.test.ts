import { describe, expect, it } from 'vitest';
import type { EventInput } from '../../../src-main/events/event-types.js';
import { Metrics } from '../../../src-main/metrics/metrics.js';
import { NfsClients, procedureLabel, REFUSED_EVENT_INTERVAL_MS } from '../../../src-main/nfs/nfs-clients.js';

function setup(maxClients?: number) {
  const events: EventInput[] = [];
  const metrics = new Metrics({ processMetrics: false });
  let now = Date.parse('2026-11-24T10:00:00Z');
  const clients = new NfsClients({ events: { emit: (input) => events.push(input) }, metrics, now: () => now, ...(maxClients ? { maxClients } : {}) });
  return { events, metrics, clients, advance: (ms: number) => (now += ms) };
}

async function metricText(metrics: Metrics): Promise<string> {
  return metrics.prometheus();
}

describe('NfsClients', () => {
  it('records mounts, unmounts, reads and refusals per client, with events', () => {
    const { clients, events, advance } = setup();
    clients.mounted('192.168.50.10', '/live');
    advance(1000);
    clients.served('192.168.50.10', 1, 4096);
    clients.served('192.168.50.10', 1, 0);
    clients.mounted('192.168.50.11', '/iso/debian');
    clients.unmounted('192.168.50.11', '/iso/debian');
    const [latest, first] = clients.list();
    expect(latest).toMatchObject({ address: '192.168.50.11', mounts: [] });
    expect(first).toMatchObject({ address: '192.168.50.10', mounts: ['/live'], requests: 2, bytes_read: 4096, refused: 0, first_seen: '2026-11-24T10:00:00.000Z', last_seen: '2026-11-24T10:00:01.000Z' });
    expect(clients.counters()).toEqual({ requests: 0, bytes_read: 4096, refused: 0 });
    expect(events.map((event) => [event.kind, event.ip, event.detail])).toEqual([
      ['nfs.mounted', '192.168.50.10', { client: '192.168.50.10', export: '/live' }],
      ['nfs.mounted', '192.168.50.11', { client: '192.168.50.11', export: '/iso/debian' }],
      ['nfs.unmounted', '192.168.50.11', { client: '192.168.50.11', export: '/iso/debian' }],
    ]);
    clients.mounted('192.168.50.10', '/other');
    clients.unmounted('192.168.50.10', null);
    expect(clients.list()[0]?.mounts).toEqual([]);
  });

  it('reports at most one refusal per client per minute, counting the rest into the next', () => {
    const { clients, events, advance } = setup();
    for (let i = 0; i < 5; i += 1) clients.refused('10.0.0.9', '/live', 'outside the export\'s subnets');
    clients.refused('10.0.0.8', '/live', 'outside the export\'s subnets');
    expect(events.filter((event) => event.kind === 'nfs.refused').map((event) => event.ip)).toEqual(['10.0.0.9', '10.0.0.8']);
    advance(REFUSED_EVENT_INTERVAL_MS);
    clients.refused('10.0.0.9', null, 'outside');
    const refused = events.filter((event) => event.kind === 'nfs.refused');
    expect(refused).toHaveLength(3);
    expect(refused[2]).toMatchObject({ level: 'warn', detail: { client: '10.0.0.9', export: null, suppressed: 4 } });
    expect(clients.counters().refused).toBe(7);
    expect(clients.list().find((client) => client.address === '10.0.0.9')?.refused).toBe(6);
  });

  it('remembers at most maxClients, dropping the one seen least recently', () => {
    const { clients } = setup(3);
    clients.served('10.0.0.1', 1, 0);
    clients.served('10.0.0.2', 1, 0);
    clients.served('10.0.0.3', 1, 0);
    clients.served('10.0.0.1', 1, 0);
    clients.served('10.0.0.4', 1, 0);
    expect(clients.list().map((client) => client.address)).toEqual(['10.0.0.4', '10.0.0.1', '10.0.0.3']);
  });

  it('keeps 1,000 clients by default', () => {
    const { clients } = setup();
    for (let i = 0; i < 1500; i += 1) clients.served(`10.0.${i >> 8}.${i & 255}`, 1, 0);
    expect(clients.list()).toHaveLength(1000);
    expect(clients.list().at(-1)?.address).toBe('10.0.1.244');
  });

  it('counts requests by procedure, bytes, refusals and mounted clients in the metrics', async () => {
    const { clients, metrics } = setup();
    clients.observeCall({ program: 'nfs', version: 3, procedure: 6, transport: 'tcp', remote: '10.0.0.1', outcome: 'success', replyBytes: 100 });
    clients.observeCall({ program: 'nfs', version: 3, procedure: 6, transport: 'udp', remote: '10.0.0.1', outcome: 'success', replyBytes: 100 });
    clients.observeCall({ program: 'mount', version: 3, procedure: 1, transport: 'tcp', remote: '10.0.0.1', outcome: 'success', replyBytes: 100 });
    clients.mounted('10.0.0.1', '/live');
    clients.mounted('10.0.0.2', '/live');
    clients.unmounted('10.0.0.2', '/live');
    clients.served('10.0.0.1', 1, 1234);
    clients.refused('10.0.0.3', '/live', 'outside');
    const text = await metricText(metrics);
    expect(text).toContain('bootwright_nfs_requests_total{procedure="nfs.READ"} 2');
    expect(text).toContain('bootwright_nfs_requests_total{procedure="mount.MNT"} 1');
    expect(text).toContain('bootwright_nfs_read_bytes_total 1234');
    expect(text).toContain('bootwright_nfs_refused_total 1');
    expect(text).toContain('bootwright_nfs_clients 1');
    expect(clients.counters()).toEqual({ requests: 3, bytes_read: 1234, refused: 1 });
    clients.reset();
    expect(clients.counters()).toEqual({ requests: 0, bytes_read: 0, refused: 0 });
    expect(clients.list()).toEqual([]);
  });

  it('labels procedures by name, and unknown ones by number', () => {
    expect(procedureLabel('nfs', 17)).toBe('nfs.READDIRPLUS');
    expect(procedureLabel('portmap', 3)).toBe('portmap.GETPORT');
    expect(procedureLabel('nfs', 99)).toBe('nfs.99');
    expect(procedureLabel('other', 1)).toBe('other.1');
  });
});
