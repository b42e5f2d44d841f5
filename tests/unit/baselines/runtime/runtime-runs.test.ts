import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssignedBaseline } from '../../../../src-main/baselines/baselines-contract.js';
import { ABANDON_GRACE_MS, BaselineRuns, outputTail, runStatus, type RunStep } from '../../../../src-main/baselines/runtime/runtime-runs.js';
import type { TokenRow } from '../../../../src-main/baselines/runtime/runtime-tokens.js';
import { EventLog } from '../../../../src-main/events/event-log.js';
import { Store } from '../../../../src-main/store/store.js';
import { tempDir } from '../../../helpers/test-core.js';

const STEPS: RunStep[] = [
  { position: 1, script_id: 10, name: 'one', continue_on_error: true },
  { position: 2, script_id: 20, name: 'two', continue_on_error: false },
];

describe('run status', () => {
  it('fails on a failure without continue_on_error or a step that reported nothing, not on one with it or a skip', () => {
    expect(runStatus(STEPS, [{ position: 1, status: 'ok' }, { position: 2, status: 'ok' }])).toBe('succeeded');
    expect(runStatus(STEPS, [{ position: 1, status: 'failed' }, { position: 2, status: 'ok' }])).toBe('succeeded');
    expect(runStatus(STEPS, [{ position: 1, status: 'timeout' }, { position: 2, status: 'skipped' }])).toBe('succeeded');
    expect(runStatus(STEPS, [{ position: 1, status: 'ok' }, { position: 2, status: 'failed' }])).toBe('failed');
    expect(runStatus(STEPS, [{ position: 1, status: 'ok' }, { position: 2, status: 'timeout' }])).toBe('failed');
    expect(runStatus(STEPS, [{ position: 1, status: 'ok' }])).toBe('failed');
    expect(runStatus([], [])).toBe('succeeded');
  });
});

describe('output tails', () => {
  it('keeps the end, in whole code points, without NULs', () => {
    expect(outputTail('abc', 5)).toBe('abc');
    expect(outputTail('0123456789', 4)).toBe('6789');
    expect(outputTail('a\u0000b', 5)).toBe('ab');
    const emoji = '😀'.repeat(10);
    expect(outputTail(emoji, 3)).toBe('😀😀😀');
  });
});

function assigned(): AssignedBaseline {
  return {
    baseline: { id: 4, name: 'web', description: '', os_family: 'linux', assign: { host_ids: [1], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: false }, scripts: [], created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' },
    rule: 'host',
    reason: 'host 1',
    host: { id: 1, mac: '52:54:00:00:00:01', hostname: 'h1' },
    scripts: STEPS.map((step) => ({ position: step.position, script_id: step.script_id, name: step.name, kind: 'sh' as const, version: 1, content: 'true', sha256: 'x', continue_on_error: step.continue_on_error, timeout_seconds: 60 })),
  };
}

describe('runs', () => {
  let store: Store;
  let dir: { dir: string; remove: () => Promise<void> };
  let events: EventLog;
  let runs: BaselineRuns;
  const token = { id: 1, host_id: 1, task_id: 9 } as TokenRow;
  const otherHost = { id: 2, host_id: 2, task_id: null } as TokenRow;

  beforeEach(async () => {
    dir = await tempDir();
    store = await Store.open({ dataDir: dir.dir });
    events = new EventLog(store);
    runs = new BaselineRuns({ store, events, macOf: (id) => (id === 1 ? '52:54:00:00:00:01' : null) });
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('opens a run with the assigned steps, replaces a step reported twice, and decides the status when finished', async () => {
    let resolved = 0;
    const resolve = async () => {
      resolved += 1;
      return assigned();
    };
    const opened = await runs.report(token, { results: [] }, resolve, '192.0.2.5');
    expect(opened.status).toBe('running');
    const result = { script_id: 10, status: 'failed' as const, exit_code: 3, duration_ms: 5, output_tail: 'x'.repeat(10) };
    await runs.report(token, { run_id: opened.run_id, results: [{ position: 1, ...result }] }, resolve, '192.0.2.5');
    await runs.report(token, { run_id: opened.run_id, results: [{ position: 1, ...result, exit_code: 4 }] }, resolve, '192.0.2.5');
    const done = await runs.report(token, { run_id: opened.run_id, results: [{ position: 2, script_id: 20, status: 'ok', exit_code: 0, duration_ms: 1, output_tail: '' }], finished: true }, resolve, '192.0.2.5');
    expect(done.status).toBe('succeeded');
    expect(resolved).toBe(1);
    const run = runs.get(opened.run_id);
    expect(run).toMatchObject({ host_id: 1, task_id: 9, baseline_id: 4, baseline_name: 'web', status: 'succeeded' });
    expect(run.results.map((r) => [r.position, r.name, r.status, r.exit_code])).toEqual([[1, 'one', 'failed', 4], [2, 'two', 'ok', 0]]);
    expect(run.finished_at).not.toBeNull();
    const kinds = events.all().map((event) => [event.kind, event.mac, event.host_id, event.level]);
    expect(kinds).toEqual([['baseline.run.started', '52:54:00:00:00:01', 1, 'info'], ['baseline.run.finished', '52:54:00:00:00:01', 1, 'info']]);
    expect(runs.list({ host_id: 1 }).data.map((r) => r.id)).toEqual([opened.run_id]);
    expect(runs.list({ task_id: 8 }).meta.total).toBe(0);
  });

  it('refuses unknown steps, a script that is not the step\'s, another host\'s run and reports after the end', async () => {
    const { run_id: runId } = await runs.report(token, { results: [] }, async () => assigned(), 'ip');
    const base = { status: 'ok' as const, exit_code: 0, duration_ms: 0, output_tail: '' };
    await expect(runs.report(token, { run_id: runId, results: [{ position: 3, script_id: 10, ...base }] }, async () => assigned(), 'ip')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(runs.report(token, { run_id: runId, results: [{ position: 1, script_id: 20, ...base }] }, async () => assigned(), 'ip')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(runs.report(otherHost, { run_id: runId, results: [] }, async () => assigned(), 'ip')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(runs.report(token, { run_id: 999, results: [] }, async () => assigned(), 'ip')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const failed = await runs.report(token, { run_id: runId, results: [], finished: true }, async () => assigned(), 'ip');
    expect(failed.status).toBe('failed');
    expect(events.all().at(-1)).toMatchObject({ kind: 'baseline.run.finished', level: 'warn' });
    await expect(runs.report(token, { run_id: runId, results: [] }, async () => assigned(), 'ip')).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('closes a run as failed once its machine has been silent past the time limits of the steps it has not reported', async () => {
    const clock = { now: Date.parse('2030-01-01T00:00:00.000Z') };
    const timed = new BaselineRuns({ store, events, macOf: () => '52:54:00:00:00:01', now: () => new Date(clock.now) });
    const { run_id: runId } = await timed.report(token, { results: [] }, async () => assigned(), 'ip');
    await timed.report(token, { run_id: runId, results: [{ position: 1, script_id: 10, status: 'ok', exit_code: 0, duration_ms: 1, output_tail: '' }] }, async () => assigned(), 'ip');
    // Step 2 may take its 60 s, then the grace: one millisecond short of that, the run stays open.
    clock.now += 60_000 + ABANDON_GRACE_MS;
    expect(await timed.abandonSilent()).toBe(0);
    expect(timed.get(runId).status).toBe('running');
    clock.now += 1;
    expect(await timed.abandonSilent()).toBe(1);
    const run = timed.get(runId);
    expect(run.status).toBe('failed');
    expect(run.results.map((result) => result.position)).toEqual([1]);
    expect(events.all().at(-1)).toMatchObject({ kind: 'baseline.run.finished', level: 'warn', detail: { abandoned: true, status: 'failed' } });
    expect(await timed.abandonSilent()).toBe(0);
  });
});
