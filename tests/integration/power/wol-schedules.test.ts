import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../../src-main/power/index.js';
import type { WolSchedule } from '../../../src-main/power/wol/wol-schedules.js';
import { tempDir, type TestCore } from '../../helpers/test-core.js';
import { api, eventsOf, nextEvent, powerCore } from './power-harness.js';

/*
 * Scheduled wakes with an injected clock (no sleeping): cron and one-shot
 * runs, time zones, validation, persistence across a restart and the run
 * missed while the app was closed. One short real-time cron at the end.
 */
const cores: TestCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function scheduleCore(clock: ManualClock | typeof systemClock, dataDir?: string) {
  const t = await powerCore({ power: { clock }, ...(dataDir ? { dataDir } : {}) });
  cores.push(t);
  return t;
}

describe('WOL schedules', () => {
  it('fires a short cron on time, records history and events, and shows the next run', async () => {
    const clock = new ManualClock('2030-01-07T08:00:00.000Z');
    const t = await scheduleCore(clock);
    const created = await api<WolSchedule>(t.core, 'POST', '/wol/schedule', { name: 'lab every 10 s', macs: ['52:54:00:00:00:01', '52-54-00-00-00-02'], cron: '*/10 * * * * *' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ macs: ['52:54:00:00:00:01', '52:54:00:00:00:02'], timezone: 'UTC', enabled: true, next_run_at: '2030-01-07T08:00:10.000Z', last_result: null });
    await t.core.area('power').start();
    const settle = () => t.core.area('power').schedules.idle();
    await clock.advance(9_999, settle);
    expect(eventsOf(t.core, 'wol.schedule.fired')).toHaveLength(0);
    await clock.advance(1, settle);
    await clock.advance(20_000, settle);
    const fired = eventsOf(t.core, 'wol.schedule.fired');
    expect(fired.map((event) => event.detail?.due_at)).toEqual(['2030-01-07T08:00:10.000Z', '2030-01-07T08:00:20.000Z', '2030-01-07T08:00:30.000Z']);
    expect(fired[0]!.detail).toMatchObject({ name: 'lab every 10 s', sent: 2, failed: 0 });
    // Two MACs per run, each sent on the served… here every usable interface (eth0 and eth1's two subnets).
    expect(t.sent).toHaveLength(3 * 2 * 3);
    const history = await api<{ trigger: string; user: string }[]>(t.core, 'GET', '/wol/history?trigger=schedule&size=500');
    expect(history.body.meta?.total).toBe(6);
    expect(history.body.data[0]).toMatchObject({ trigger: 'schedule', user: 'schedule:lab every 10 s' });
    const list = await api<WolSchedule[]>(t.core, 'GET', '/wol/schedules');
    expect(list.body.data[0]).toMatchObject({ next_run_at: '2030-01-07T08:00:40.000Z', last_run_at: '2030-01-07T08:00:30.000Z', last_result: 'ok' });
  });

  it('runs a one-shot `at` once and reads cron in the given time zone', async () => {
    const clock = new ManualClock('2030-01-07T08:00:00.000Z');
    const t = await scheduleCore(clock);
    await t.core.area('power').start();
    const once = await api<WolSchedule>(t.core, 'POST', '/wol/schedule', { name: 'once', macs: ['52:54:00:00:00:03'], at: '2030-01-07T10:00:00+01:00' });
    expect(once.body.data).toMatchObject({ at: '2030-01-07T09:00:00.000Z', next_run_at: '2030-01-07T09:00:00.000Z' });
    const later = await api<WolSchedule>(t.core, 'POST', '/wol/schedule', { name: 'later', macs: ['52:54:00:00:00:03'], at: '2030-01-07T08:30:00Z' });
    expect(later.body.data.next_run_at).toBe('2030-01-07T08:30:00.000Z');
    const berlin = await api<WolSchedule>(t.core, 'POST', '/wol/schedule', { name: 'berlin mornings', macs: ['52:54:00:00:00:04'], cron: '30 7 * * 1-5', timezone: 'Europe/Berlin' });
    // 07:30 in Berlin is 06:30 UTC in winter: the next one is Tuesday's.
    expect(berlin.body.data.next_run_at).toBe('2030-01-08T06:30:00.000Z');
    await clock.advance(3 * 3600_000, () => t.core.area('power').schedules.idle());
    expect(eventsOf(t.core, 'wol.schedule.fired').map((event) => event.detail?.name)).toEqual(['later', 'once']);
    const after = (await api<WolSchedule[]>(t.core, 'GET', '/wol/schedules')).body.data;
    expect(after.find((row) => row.name === 'once')).toMatchObject({ next_run_at: null, last_run_at: '2030-01-07T09:00:00.000Z', last_result: 'ok' });
    expect(after.find((row) => row.name === 'berlin mornings')).toMatchObject({ next_run_at: '2030-01-08T06:30:00.000Z', last_run_at: null });
  });

  it('edits a schedule with PUT: pausing stops its runs, resuming restarts them from now, omitted fields stay', async () => {
    const clock = new ManualClock('2030-01-07T08:00:00.000Z');
    const t = await scheduleCore(clock);
    await t.core.area('power').start();
    const settle = () => t.core.area('power').schedules.idle();
    const made = await api<WolSchedule>(t.core, 'POST', '/wol/schedule', { name: 'every minute', macs: ['52:54:00:00:00:07'], cron: '0 * * * * *' });
    const id = made.body.data.id;
    const paused = await api<WolSchedule>(t.core, 'PUT', `/wol/schedule/${id}`, { enabled: false });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ name: 'every minute', macs: ['52:54:00:00:00:07'], cron: '0 * * * * *', enabled: false, next_run_at: null });
    await clock.advance(5 * 60_000, settle);
    expect(eventsOf(t.core, 'wol.schedule.fired')).toHaveLength(0);

    const resumed = await api<WolSchedule>(t.core, 'PUT', `/wol/schedule/${id}`, { enabled: true, name: 'hourly now', cron: '0 0 * * * *' });
    expect(resumed.body.data).toMatchObject({ name: 'hourly now', enabled: true, next_run_at: '2030-01-07T09:00:00.000Z', macs: ['52:54:00:00:00:07'] });
    await clock.advance(60 * 60_000, settle);
    expect(eventsOf(t.core, 'wol.schedule.fired').map((event) => event.detail?.name)).toEqual(['hourly now']);

    // at replaces cron; host_ids/macs pairs and names are checked as on create.
    const oneShot = await api<WolSchedule>(t.core, 'PUT', `/wol/schedule/${id}`, { at: '2030-01-08T00:00:00Z' });
    expect(oneShot.body.data).toMatchObject({ cron: null, at: '2030-01-08T00:00:00.000Z', next_run_at: '2030-01-08T00:00:00.000Z' });
    await api(t.core, 'POST', '/wol/schedule', { name: 'other', macs: ['52:54:00:00:00:08'], cron: '0 * * * *' });
    expect((await api(t.core, 'PUT', `/wol/schedule/${id}`, { name: 'OTHER' })).status).toBe(409);
    const both = await api(t.core, 'PUT', `/wol/schedule/${id}`, { cron: '0 * * * *', at: '2031-01-01T00:00:00Z' });
    expect(both.status).toBe(400);
    expect((await api(t.core, 'PUT', `/wol/schedule/${id}`, { bogus: 1 })).status).toBe(400);
    expect((await api(t.core, 'PUT', '/wol/schedule/99999', { enabled: false })).status).toBe(404);
  });

  it('refuses bad schedules with a 400 naming the fields, and duplicates with 409', async () => {
    const clock = new ManualClock('2030-01-07T08:00:00.000Z');
    const t = await scheduleCore(clock);
    const cases: [unknown, string][] = [
      [{ name: 'a', macs: ['52:54:00:00:00:01'], cron: 'every day' }, 'body.cron'],
      [{ name: 'a', macs: ['52:54:00:00:00:01'], cron: '* * * * *', timezone: 'Mars/Olympus' }, 'body.timezone'],
      [{ name: 'a', macs: ['52:54:00:00:00:01'], cron: '* * * * *', at: '2031-01-01T00:00:00Z' }, 'body.cron'],
      [{ name: 'a', macs: ['52:54:00:00:00:01'] }, 'body.cron'],
      [{ name: 'a', macs: ['52:54:00:00:00:01'], at: '2020-01-01T00:00:00Z' }, 'body.at'],
      [{ name: 'a', cron: '* * * * *' }, 'body.host_ids'],
      [{ name: 'a', host_ids: [999], cron: '* * * * *' }, 'body.host_ids.0'],
      [{ name: 'a', macs: ['nope'], cron: '* * * * *' }, 'body.macs.0'],
    ];
    for (const [body, field] of cases) {
      const response = await api(t.core, 'POST', '/wol/schedule', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details?.map((detail) => detail.field)).toContain(field);
    }
    expect((await api(t.core, 'POST', '/wol/schedule', { name: 'dup', macs: ['52:54:00:00:00:01'], cron: '0 * * * *' })).status).toBe(201);
    expect((await api(t.core, 'POST', '/wol/schedule', { name: 'DUP', macs: ['52:54:00:00:00:01'], cron: '0 * * * *' })).status).toBe(409);
    expect((await api(t.core, 'GET', '/wol/schedules')).body.meta?.total).toBe(1);
  });

  it('persists schedules, skips the run missed while stopped (with an event) and runs the next one', async () => {
    const data = await tempDir('bootwright-wol-restart-');
    try {
      const clock = new ManualClock('2030-01-07T08:10:00.000Z');
      const first = await scheduleCore(clock, data.dir);
      await first.core.area('power').start();
      const created = await api<WolSchedule>(first.core, 'POST', '/wol/schedule', { name: 'hourly', macs: ['52:54:00:00:00:05'], cron: '0 * * * *' });
      expect(created.body.data.next_run_at).toBe('2030-01-07T09:00:00.000Z');
      const removed = await api<WolSchedule>(first.core, 'POST', '/wol/schedule', { name: 'gone', macs: ['52:54:00:00:00:06'], cron: '0 * * * *' });
      expect((await api(first.core, 'DELETE', `/wol/schedule/${removed.body.data.id}`)).status).toBe(200);
      expect((await api(first.core, 'DELETE', `/wol/schedule/${removed.body.data.id}`)).status).toBe(404);
      await first.close();
      cores.splice(cores.indexOf(first), 1);

      // The app was closed from 08:10 to 09:40: the 09:00 run was missed.
      clock.set('2030-01-07T09:40:00.000Z');
      const second = await scheduleCore(clock, data.dir);
      await second.core.area('power').start();
      const missed = eventsOf(second.core, 'wol.schedule.missed');
      expect(missed).toHaveLength(1);
      expect(missed[0]).toMatchObject({ level: 'warn', detail: { name: 'hourly', due_at: '2030-01-07T09:00:00.000Z' } });
      expect(eventsOf(second.core, 'wol.schedule.fired')).toHaveLength(0);
      expect(second.sent).toHaveLength(0);
      const listed = (await api<WolSchedule[]>(second.core, 'GET', '/wol/schedules')).body.data;
      expect(listed.map((row) => row.name)).toEqual(['hourly']);
      expect(listed[0]).toMatchObject({ next_run_at: '2030-01-07T10:00:00.000Z', last_result: 'missed' });
      await clock.advance(20 * 60_000, () => second.core.area('power').schedules.idle());
      expect(eventsOf(second.core, 'wol.schedule.fired').map((event) => event.detail?.due_at)).toEqual(['2030-01-07T10:00:00.000Z']);
    } finally {
      for (const core of cores.splice(0)) await core.close();
      await data.remove();
    }
  });

  it('skips a run that fires more than five minutes late (the machine slept)', async () => {
    const clock = new ManualClock('2030-01-07T08:00:00.000Z');
    const t = await scheduleCore(clock);
    await t.core.area('power').start();
    await api(t.core, 'POST', '/wol/schedule', { name: 'sleepy', macs: ['52:54:00:00:00:07'], cron: '0 9 * * *' });
    // The timer fires only now, two hours after 09:00.
    clock.set('2030-01-07T11:00:00.000Z');
    await clock.advance(0, () => t.core.area('power').schedules.idle());
    expect(eventsOf(t.core, 'wol.schedule.missed')[0]?.detail).toMatchObject({ due_at: '2030-01-07T09:00:00.000Z' });
    expect(t.sent).toHaveLength(0);
  });

  it('keeps a schedule armed after a run that failed (its next run still fires)', async () => {
    const clock = new ManualClock('2030-01-07T08:00:00.000Z');
    const t = await scheduleCore(clock);
    await api<WolSchedule>(t.core, 'POST', '/wol/schedule', { name: 'flaky', macs: ['52:54:00:00:00:05'], cron: '*/10 * * * * *' });
    await t.core.area('power').start();
    const wol = t.core.area('power').wol;
    const realWake = wol.wakeMac.bind(wol);
    let calls = 0;
    wol.wakeMac = async (...args: Parameters<typeof wol.wakeMac>) => {
      calls += 1;
      if (calls === 1) throw new Error('the store refused the history row');
      return realWake(...args);
    };
    const settle = () => t.core.area('power').schedules.idle();
    await clock.advance(10_000, settle);
    expect(eventsOf(t.core, 'wol.schedule.fired')).toHaveLength(0);
    await clock.advance(10_000, settle);
    expect(calls).toBe(2);
    expect(eventsOf(t.core, 'wol.schedule.fired').map((event) => event.detail?.due_at)).toEqual(['2030-01-07T08:00:20.000Z']);
    const row = (await api<WolSchedule[]>(t.core, 'GET', '/wol/schedules')).body.data.find((schedule) => schedule.name === 'flaky');
    expect(row?.next_run_at).toBe('2030-01-07T08:00:30.000Z');
  });

  it('fires a per-second cron on the real clock', async () => {
    const t = await scheduleCore(systemClock);
    await t.core.area('power').start();
    await api(t.core, 'POST', '/wol/schedule', { name: 'every second', macs: ['52:54:00:00:00:08'], cron: '* * * * * *' });
    const fired = await nextEvent(t.core, 'wol.schedule.fired', 5_000);
    expect(fired.detail).toMatchObject({ name: 'every second', sent: 1 });
  });
});
