import { describe, expect, it } from 'vitest';
import type { EventData } from '@contracts/events';
import type { InstallTask, PrefetchJob } from '@contracts/netboot';
import { applyPrefetchEvents, newerJob, percentOf } from '../../../../src-renderer/src/pages/netboot/prefetch-progress.js';
import { taskPhases } from '../../../../src-renderer/src/pages/netboot/task-timeline.js';
import { rowsToVariables } from '../../../../src-renderer/src/pages/netboot/variable-rows.js';

const JOB: PrefetchJob = { id: 'j1', distro: 'debian', version: '12', arch: 'x86_64', state: 'running', bytes_done: 0, bytes_total: null, error: null };
const event = (id: number, kind: string, detail: Record<string, unknown>, message = kind): EventData => ({ id, kind, level: 'info', message, mac: null, ip: null, host_id: null, detail, created_at: '2024-05-01T00:00:00Z' });

describe('prefetch progress from events', () => {
  it('folds progress in id order (the live store is newest first) and ends the job on done', () => {
    const events = [event(3, 'netboot.prefetch.progress', { job_id: 'j1', bytes_done: 80, bytes_total: 100 }), event(2, 'netboot.prefetch.progress', { job_id: 'j1', bytes_done: 40, bytes_total: 100 })];
    const running = applyPrefetchEvents([JOB], events).get('debian/12/x86_64');
    expect(running).toMatchObject({ state: 'running', bytes_done: 80, bytes_total: 100 });
    expect(running && percentOf(running)).toBe(80);
    const done = applyPrefetchEvents([JOB], [event(4, 'netboot.prefetch.done', { job_id: 'j1' }), ...events]).get('debian/12/x86_64');
    expect(done).toMatchObject({ state: 'done', bytes_done: 100 });
  });

  it('reports a failure with its reason, follows jobs started elsewhere when named, and ignores other events', () => {
    const failed = applyPrefetchEvents([JOB], [event(5, 'netboot.prefetch.failed', { job_id: 'j1', error: 'checksum mismatch for linux' })]).get('debian/12/x86_64');
    expect(failed).toMatchObject({ state: 'failed', error: 'checksum mismatch for linux' });
    const other = applyPrefetchEvents([], [event(6, 'netboot.prefetch.progress', { job_id: 'k', distro: 'ubuntu', version: '24.04', arch: 'arm64', bytes_done: 5, bytes_total: null })]);
    expect(other.get('ubuntu/24.04/arm64')).toMatchObject({ state: 'running', bytes_done: 5, bytes_total: null });
    expect(applyPrefetchEvents([], [event(7, 'netboot.prefetch.progress', { job_id: 'unknown', bytes_done: 5 }), event(8, 'dhcp.ack', { job_id: 'j1' })]).size).toBe(0);
  });
});

describe('a polled job against the events', () => {
  it('keeps a final state, else the view further along', () => {
    const polled = { ...JOB, bytes_done: 50 };
    expect(newerJob(polled, { ...JOB, bytes_done: 70 }).bytes_done).toBe(70);
    expect(newerJob(polled, { ...JOB, bytes_done: 10 }).bytes_done).toBe(50);
    expect(newerJob(polled, { ...JOB, state: 'failed', error: 'x' }).state).toBe('failed');
    expect(newerJob({ ...JOB, state: 'done' }, { ...JOB, bytes_done: 90 }).state).toBe('done');
    expect(newerJob(polled, undefined)).toBe(polled);
  });
});

describe('task phases', () => {
  const base: Pick<InstallTask, 'state' | 'timeline' | 'finished_at'> = { state: 'booting', finished_at: null, timeline: [] };
  const item = (kind: string) => ({ at: '2024-05-01T00:00:00Z', kind, state: null, message: kind });

  it('marks the phases the timeline reached, and the earlier ones a later phase implies', () => {
    const phases = taskPhases({ ...base, timeline: [item('dhcp.ack'), item('netboot.answer_fetched')] });
    expect(phases.map((phase) => [phase.id, phase.status])).toEqual([
      ['dhcp', 'reached'],
      ['script', 'reached'],
      ['files', 'reached'],
      ['answer', 'reached'],
      ['callbacks', 'waiting'],
      ['done', 'waiting'],
    ]);
  });

  it('ends in done, or names how a task ended otherwise', () => {
    expect(taskPhases({ ...base, state: 'done' }).at(-1)).toMatchObject({ status: 'reached', label: 'Done' });
    expect(taskPhases({ ...base, state: 'expired' }).at(-1)).toMatchObject({ status: 'failed', label: 'Ended: expired' });
  });
});

describe('variable rows', () => {
  it('takes names and values the contract accepts, and names the bad rows', () => {
    expect(rowsToVariables([{ name: 'disk', value: '/dev/vda' }, { name: '', value: '' }])).toEqual({ variables: { disk: '/dev/vda' }, problems: {} });
    const { problems } = rowsToVariables([{ name: 'Disk', value: 'x' }, { name: 'a', value: '1' }, { name: 'a', value: '2' }]);
    expect(Object.keys(problems)).toEqual(['0', '2']);
    expect(problems[2]).toBe('"a" is set twice');
  });
});
