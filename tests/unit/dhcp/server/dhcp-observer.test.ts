import { describe, expect, it } from 'vitest';
import type { EventLog } from '../../../../src-main/events/event-log.js';
import { DHCP_EVENT_BUDGETS, DhcpObserver } from '../../../../src-main/dhcp/server/dhcp-observer.js';
import { Metrics } from '../../../../src-main/metrics/metrics.js';

function observer() {
  const clock = { now: 1_000_000 };
  const emitted: string[] = [];
  const events = { emit: (input: { mac?: string }) => emitted.push(input.mac ?? '') } as unknown as EventLog;
  return { clock, emitted, observer: new DhcpObserver({ events, metrics: new Metrics({ processMetrics: false }), clock: () => clock.now }) };
}

const mac = (n: number) => `52:54:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`;

describe('DhcpObserver event budgets', () => {
  it('limits a looping client to its own budget without taking the events of the others', () => {
    const { observer: o } = observer();
    const looping = Array.from({ length: 500 }, () => o.wantsEvent('dhcp.discover', 'info', mac(1))).filter(Boolean).length;
    expect(looping).toBe(DHCP_EVENT_BUDGETS.perClient.burst);
    // A boot storm: 200 machines, each a DHCP exchange twice (firmware, then iPXE) — every event kept.
    let kept = 0;
    for (let machine = 2; machine < 202; machine += 1) {
      for (const kind of ['dhcp.discover', 'dhcp.offer', 'dhcp.request', 'dhcp.ack', 'dhcp.discover', 'dhcp.offer', 'dhcp.request', 'dhcp.ack'] as const) {
        if (o.wantsEvent(kind, 'info', mac(machine))) kept += 1;
      }
    }
    expect(kept).toBe(1600);
  });

  it('refills a client budget over time', () => {
    const { observer: o, clock } = observer();
    while (o.wantsEvent('dhcp.discover', 'info', mac(1)));
    clock.now += 2000 / DHCP_EVENT_BUDGETS.perClient.rate / 2;
    expect(o.wantsEvent('dhcp.discover', 'info', mac(1))).toBe(true);
    expect(o.wantsEvent('dhcp.discover', 'info', mac(1))).toBe(false);
  });

  it('bounds a flood of new MACs by the shared budget, and keeps outcomes apart from the chatter', () => {
    const { observer: o } = observer();
    let chatter = 0;
    for (let n = 0; n < 10_000; n += 1) if (o.wantsEvent('dhcp.discover', 'info', mac(n))) chatter += 1;
    expect(chatter).toBe(DHCP_EVENT_BUDGETS.chatter.burst);
    expect(o.wantsEvent('dhcp.nak', 'info', mac(20_000))).toBe(true);
    expect(o.wantsEvent('dhcp.ack', 'warn', mac(20_001))).toBe(true);
    expect(o.wantsEvent('dhcp.offer', 'info', mac(20_002))).toBe(false);
  });
});
