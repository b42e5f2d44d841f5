import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../../src-main/events/event-types.js';
import { taskTimeline } from '../../../../src-main/netboot/tasks/task-timeline.js';
import type { TaskRow } from '../../../../src-main/netboot/tasks/task-types.js';

const MAC = '52:54:00:aa:00:01';
let nextId = 0;
function event(kind: string, at: string, mac: string | null, ip: string | null): AppEvent {
  nextId += 1;
  return { id: nextId, kind, level: 'info', message: `${kind} ${nextId}`, mac, ip, host_id: null, detail: null, created_at: at, updated_at: at } as AppEvent;
}

const row = {
  mac: MAC,
  transitions: [
    { from: null, to: 'pending', at: '2026-03-01T10:00:00.000Z', message: 'created', source: 'api' },
    { from: 'pending', to: 'booting', at: '2026-03-01T10:01:00.000Z', message: 'installer served', source: 'boot' },
  ],
} as unknown as TaskRow;

describe('task timelines', () => {
  it('merges the task\'s transitions with its MAC\'s events and the transfers of its addresses, in time order', () => {
    const events = [
      event('dhcp.ack', '2026-03-01T10:00:30.000Z', MAC, '192.0.2.50'),
      event('dhcp.ack', '2026-03-01T10:00:31.000Z', '52:54:00:aa:00:02', '192.0.2.51'),
      event('boot.script_served', '2026-03-01T10:01:00.000Z', MAC, '192.0.2.50'),
      event('http.transfer.completed', '2026-03-01T10:01:10.000Z', null, '192.0.2.50'),
      event('http.transfer.completed', '2026-03-01T10:01:11.000Z', null, '192.0.2.51'),
      event('tftp.transfer.completed', '2026-03-01T10:01:12.000Z', null, '192.0.2.60'),
      event('settings.changed', '2026-03-01T10:01:13.000Z', null, null),
      event('netboot.answer_fetched', '2026-03-01T10:02:00.000Z', MAC, '192.0.2.50'),
    ];
    const timeline = taskTimeline(row, events, ['192.0.2.60']);
    expect(timeline.map((item) => `${item.at.slice(11, 19)} ${item.kind}${item.state ? `:${item.state}` : ''}`)).toEqual([
      '10:00:00 netboot.task.state:pending',
      '10:00:30 dhcp.ack',
      '10:01:00 netboot.task.state:booting',
      '10:01:00 boot.script_served',
      '10:01:10 http.transfer.completed',
      '10:01:12 tftp.transfer.completed',
      '10:02:00 netboot.answer_fetched',
    ]);
    expect(timeline[2]?.message).toBe('pending → booting: installer served');
  });

  it('shows the installed system\'s baseline run (the baselines runtime\'s events of the MAC)', () => {
    const events = [
      event('baseline.run.started', '2026-03-01T10:30:00.000Z', MAC, '192.0.2.50'),
      event('baseline.run.finished', '2026-03-01T10:31:00.000Z', MAC, '192.0.2.50'),
      event('baseline.run.finished', '2026-03-01T10:31:01.000Z', '52:54:00:aa:00:02', '192.0.2.51'),
    ];
    expect(taskTimeline(row, events, []).map((item) => item.kind)).toEqual(['netboot.task.state', 'netboot.task.state', 'baseline.run.started', 'baseline.run.finished']);
  });

  it('keeps the newest items up to its bound', () => {
    const events = Array.from({ length: 300 }, (_, i) => event('dhcp.ack', new Date(Date.UTC(2026, 2, 1, 11, 0, i)).toISOString(), MAC, '192.0.2.50'));
    const timeline = taskTimeline(row, events, [], 200);
    expect(timeline).toHaveLength(200);
    expect(timeline.at(-1)?.message).toBe(events.at(-1)?.message);
  });
});
