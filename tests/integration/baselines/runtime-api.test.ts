import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaselineRun, BaselineToken, BaselineTokenCreated } from '../../../src-main/baselines/baselines-contract.js';
import { answerUrlIn, bootScript, call, createTask, eventsSince, lastEventId } from '../netboot/tasks-kit.js';
import { runtimeLab, type RuntimeLab } from './runtime-kit.js';

let lab: RuntimeLab;

beforeAll(async () => {
  lab = await runtimeLab({ limits: { tokenBurst: 40, tokenPerMinute: 1 } });
});
afterAll(async () => lab.close());

let hostCounter = 0;
async function newHost(steps = true): Promise<{ id: number; mac: string }> {
  hostCounter += 1;
  const mac = `52:54:00:b5:00:${hostCounter.toString(16).padStart(2, '0')}`;
  const host = await lab.t.core.area('hosts').create({ mac, hostname: `rt-${hostCounter}` });
  if (steps) {
    lab.resolver.steps.set(host.id, [
      { script_id: 1, name: 'first', content: 'echo one\n', continue_on_error: true },
      { script_id: 2, name: 'second', content: 'echo two\n' },
    ]);
  }
  return { id: host.id, mac };
}

async function mint(hostId: number, extra: Record<string, unknown> = {}): Promise<BaselineTokenCreated> {
  const reply = await call<BaselineTokenCreated>(lab, 'POST', '/baselines/tokens', { body: { host_id: hostId, ...extra } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
}

function runtimePath(token: string, rest: string): string {
  return `/baselines/runtime/${token}/${rest}`;
}

describe('runtime tokens (operators)', () => {
  it('are created by operators for existing hosts only, shown once, listed without secrets, revoked', async () => {
    const host = await newHost();
    expect((await call(lab, 'POST', '/baselines/tokens', { body: { host_id: host.id }, headers: lab.viewer })).status).toBe(403);
    expect((await call(lab, 'GET', `/baselines/tokens?host_id=${host.id}`, { headers: lab.viewer })).status).toBe(403);
    expect((await call(lab, 'POST', '/baselines/tokens', { body: { host_id: 99_999 } })).status).toBe(404);
    expect((await call(lab, 'POST', '/baselines/tokens', { body: { host_id: host.id, ttl_minutes: 1 } })).status).toBe(400);

    const created = await mint(host.id);
    expect(created.token).toMatch(/^bwb_/);
    expect(created.runner_url_sh).toBe(`${lab.base}/api/v1/baselines/runtime/${created.token}/run.sh`);
    expect(created.runner_url_ps1).toBe(`${lab.base}/api/v1/baselines/runtime/${created.token}/run.ps1`);
    const listed = await call<BaselineToken[]>(lab, 'GET', `/baselines/tokens?host_id=${host.id}`);
    expect(listed.body.data).toEqual([created.token_info]);
    expect(listed.text).not.toContain(created.token);

    expect((await call(lab, 'GET', runtimePath(created.token, 'scripts'), { headers: {} })).status).toBe(200);
    expect((await call(lab, 'DELETE', `/baselines/tokens/${created.token_info.id}`, { headers: lab.viewer })).status).toBe(403);
    const revoked = await call<BaselineToken>(lab, 'DELETE', `/baselines/tokens/${created.token_info.id}`);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    expect((await call(lab, 'GET', runtimePath(created.token, 'scripts'), { headers: {} })).status).toBe(404);

    // Both are audited, neither row holds the secret.
    const audit = await call<{ action: string; path: string }[]>(lab, 'GET', '/audit-logs?size=50', { headers: lab.admin });
    const rows = audit.body.data.filter((entry) => entry.path.startsWith('/api/v1/baselines/tokens'));
    expect(rows.map((entry) => entry.path)).toEqual(expect.arrayContaining(['/api/v1/baselines/tokens', `/api/v1/baselines/tokens/${created.token_info.id}`]));
    expect(audit.text).not.toContain(created.token);
  });

  it('is not an API credential anywhere', async () => {
    const host = await newHost();
    const { token } = await mint(host.id);
    for (const url of ['/hosts', '/baselines/runs', `/baselines/tokens?host_id=${host.id}`, '/auth/session']) {
      const reply = await call(lab, 'GET', url, { headers: { authorization: `Bearer ${token}` } });
      // /auth/session answers everyone; a token that is no credential is "not authenticated" there.
      const refused = url === '/auth/session' ? reply.status === 200 && reply.text.includes('"authenticated":false') : reply.status === 401;
      expect(refused, `${url}: ${reply.status} ${reply.text}`).toBe(true);
    }
    expect((await call(lab, 'POST', '/baselines/tokens', { body: { host_id: host.id }, headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    // Nor does it read another host's baseline through the runtime: the host is the token's, whatever the URL says.
    expect((await call(lab, 'GET', `/baselines/assigned?host_id=${host.id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBeGreaterThanOrEqual(401);
  });

  it('takes an install task of its host only', async () => {
    const host = await newHost();
    const other = await newHost();
    const task = await createTask(lab, { host_id: host.id, distro: 'debian' });
    expect((await call(lab, 'POST', '/baselines/tokens', { body: { host_id: other.id, task_id: task.id } })).status).toBe(400);
    expect((await call(lab, 'POST', '/baselines/tokens', { body: { host_id: host.id, task_id: 99_999 } })).status).toBe(404);
    expect((await mint(host.id, { task_id: task.id })).token_info.task_id).toBe(task.id);
  });
});

describe('the public runtime routes', () => {
  it('answer the same 404 to a bad, malformed, revoked or expired token and to a deleted host', async () => {
    const host = await newHost();
    const { token, token_info: info } = await mint(host.id);
    const bad = [`${token.slice(0, -2)}xx`, 'bwb_short', 'not-a-token', token.slice(4), `${token}%00`];
    for (const candidate of bad) {
      for (const rest of ['run.sh', 'run.ps1', 'scripts', 'scripts.txt', 'script/1']) {
        const reply = await call(lab, 'GET', runtimePath(candidate, rest), { headers: {} });
        expect(reply.status, `${candidate} ${rest}`).toBe(404);
        expect(reply.body).toMatchObject({ success: false, code: 'NOT_FOUND', error: 'not found' });
      }
      expect((await call(lab, 'POST', runtimePath(candidate, 'results'), { headers: {}, body: { results: [] } })).status).toBe(404);
    }
    // Expired: moved past its lifetime through the store (the clock of the runtime is the real one).
    const tokens = lab.t.core.kernel.store.collection<{ id: number; expires_at: string; created_at: string; updated_at: string }>('baseline_tokens');
    await tokens.update(info.id, { expires_at: new Date(Date.now() - 1000).toISOString() });
    expect((await call(lab, 'GET', runtimePath(token, 'scripts'), { headers: {} })).status).toBe(404);

    const second = await mint(host.id);
    expect((await call(lab, 'GET', runtimePath(second.token, 'scripts'), { headers: {} })).status).toBe(200);
    await lab.t.core.area('hosts').remove(host.id);
    expect((await call(lab, 'GET', runtimePath(second.token, 'scripts'), { headers: {} })).status).toBe(404);
  });

  it('serve the host\'s steps as JSON, as lines and one by one, and the runners with the URL the machine reached', async () => {
    const host = await newHost();
    const { token } = await mint(host.id);
    const scripts = await call<{ scripts: { position: number; sha256: string }[] }>(lab, 'GET', runtimePath(token, 'scripts'), { headers: {} });
    expect(scripts.body.data.scripts.map((script) => script.position)).toEqual([1, 2]);
    const lines = await call(lab, 'GET', runtimePath(token, 'scripts.txt'), { headers: {} });
    expect(lines.text.split('\n')[1]).toBe(`1 ${scripts.body.data.scripts[0]?.sha256} 1 60 sh 1 first`);
    const script = await call(lab, 'GET', runtimePath(token, 'script/2'), { headers: {} });
    expect(script.text).toBe('echo two\n');
    expect(script.headers['cache-control']).toBe('no-store');
    expect((await call(lab, 'GET', runtimePath(token, 'script/3'), { headers: {} })).status).toBe(404);
    const runner = await call(lab, 'GET', runtimePath(token, 'run.sh'), { headers: {}, remoteAddress: '127.0.0.1' });
    expect(runner.headers['content-type']).toContain('text/x-shellscript');
    expect(runner.text).toContain(`BW_URL='http://127.0.0.1:${lab.t.core.kernel.http.port()}/api/v1/baselines/runtime/${token}'`);
    expect((await call(lab, 'GET', runtimePath(token, 'run.ps1'), { headers: {} })).text).toContain(`$BwUrl = 'http://127.0.0.1:`);
  });

  it('record reports as runs the host\'s viewers can read, and refuse what does not fit', async () => {
    const host = await newHost();
    const { token } = await mint(host.id);
    const before = lastEventId(lab);
    const started = await call<{ run_id: number; status: string }>(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { results: [] } });
    expect(started.body.data.status).toBe('running');
    const runId = started.body.data.run_id;
    const result = { position: 1, script_id: 1, status: 'failed', exit_code: 2, duration_ms: 10, output_tail: 'oops' };
    expect((await call(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { run_id: runId, results: [{ ...result, position: 7 }] } })).status).toBe(400);
    expect((await call(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { run_id: runId, results: [{ ...result, output_tail: 'x'.repeat(8193) }] } })).status).toBe(400);
    expect((await call(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { run_id: runId, results: [result], extra: 1 } })).status).toBe(400);
    // Another host's token cannot touch this run.
    const stranger = await mint((await newHost()).id);
    expect((await call(lab, 'POST', runtimePath(stranger.token, 'results'), { headers: {}, body: { run_id: runId, results: [] } })).status).toBe(404);

    await call(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { run_id: runId, results: [result] } });
    const raw = await lab.t.core.http.inject({
      method: 'POST',
      url: `/api/v1${runtimePath(token, `report?run_id=${runId}&position=2&script_id=2&status=ok&exit_code=0&duration_ms=1000`)}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('two\n'),
    });
    expect(raw.statusCode, raw.body).toBe(200);
    expect(raw.body).toBe(`${runId} running\n`);
    const finished = await lab.t.core.http.inject({ method: 'POST', url: `/api/v1${runtimePath(token, `report?run_id=${runId}&finished=1`)}` });
    expect(finished.body).toBe(`${runId} succeeded\n`);
    expect((await call(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { run_id: runId, results: [] } })).status).toBe(409);

    const runs = await call<BaselineRun[]>(lab, 'GET', `/baselines/runs?host_id=${host.id}`, { headers: lab.viewer });
    expect(runs.body.data).toHaveLength(1);
    const run = await call<BaselineRun>(lab, 'GET', `/baselines/runs/${runId}`, { headers: lab.viewer });
    expect(run.body.data).toMatchObject({ status: 'succeeded', baseline_name: `baseline of host ${host.id}` });
    expect(run.body.data.results.map((r) => [r.name, r.status, r.exit_code, r.output_tail])).toEqual([['first', 'failed', 2, 'oops'], ['second', 'ok', 0, 'two\n']]);
    expect((await call(lab, 'GET', `/baselines/runs/${runId}`, { headers: {} })).status).toBe(401);
    const events = eventsSince(lab, before).filter((event) => event.kind.startsWith('baseline.run.'));
    expect(events.map((event) => [event.kind, event.mac, event.host_id])).toEqual([['baseline.run.started', host.mac, host.id], ['baseline.run.finished', host.mac, host.id]]);
    for (const event of eventsSince(lab, before)) expect(JSON.stringify(event)).not.toContain(token);
  });

  it('keep the hardware inventory a host posts on that host only, bounded, for its viewers', async () => {
    const host = await newHost();
    const other = await newHost();
    const { token } = await mint(host.id);
    const none = await call(lab, 'GET', `/hosts/${host.id}/inventory`, { headers: lab.viewer });
    expect([none.status, none.body.data]).toEqual([200, null]);
    const post = (body: unknown, headers: Record<string, string> = {}) => call(lab, 'POST', runtimePath(token, 'inventory'), { body, headers });
    expect((await post([1, 2])).status).toBe(400);
    expect((await call(lab, 'POST', runtimePath('bwb_wrong', 'inventory'), { body: { serial: 'x' }, headers: {} })).status).toBe(404);
    const big = await lab.t.core.http.inject({ method: 'POST', url: `/api/v1${runtimePath(token, 'inventory')}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(big.statusCode).toBe(413);
    const first = await post({ serial: 'A1', lshw: { class: 'system', vendor: 'Acme', product: 'R1', children: [{ class: 'processor', product: 'CPU X' }, { class: 'processor', product: 'CPU X' }] } });
    expect(first.status, first.text).toBe(200);
    expect((await post({ serial: 'A2' })).status).toBe(200);
    const read = await call<{ summary: { serial: string | null; vendor: string | null; cpu_count: number }; data: unknown }>(lab, 'GET', `/hosts/${host.id}/inventory`, { headers: lab.viewer });
    expect(read.status).toBe(200);
    // The second report replaced the first.
    expect(read.body.data.summary).toMatchObject({ serial: 'A2', vendor: null, cpu_count: 0 });
    expect(read.body.data.data).toEqual({ serial: 'A2' });
    expect((await call(lab, 'GET', `/hosts/${other.id}/inventory`, { headers: lab.viewer })).body.data).toBeNull();
    expect((await call(lab, 'GET', `/hosts/${host.id}/inventory`, { headers: {} })).status).toBe(401);
    expect((await call(lab, 'GET', '/hosts/99999/inventory', { headers: lab.viewer })).status).toBe(404);
  });

  it('bound bodies and rate-limit per token', async () => {
    const host = await newHost();
    const { token } = await mint(host.id);
    const big = await lab.t.core.http.inject({ method: 'POST', url: `/api/v1${runtimePath(token, 'report')}`, headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(64 * 1024 + 1) });
    expect(big.statusCode).toBe(413);
    const huge = await lab.t.core.http.inject({ method: 'POST', url: `/api/v1${runtimePath(token, 'results')}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ results: [], pad: 'x'.repeat(1024 * 1024) }) });
    expect(huge.statusCode).toBe(413);
    // 40 requests at once, then the token is over its rate (1 a minute): 429 with Retry-After; the next host's token is not.
    let limited: { status: number; headers: Record<string, unknown> } | null = null;
    for (let i = 0; i < 45 && limited === null; i += 1) {
      const reply = await call(lab, 'GET', runtimePath(token, 'scripts.txt'), { headers: {} });
      if (reply.status === 429) limited = reply;
      else expect(reply.status).toBe(200);
    }
    expect(limited?.headers['retry-after']).toBe('60');
    const fresh = await mint((await newHost()).id);
    expect((await call(lab, 'GET', runtimePath(fresh.token, 'scripts.txt'), { headers: {} })).status).toBe(200);
  });
});

describe('install tasks', () => {
  it('get the runner URL in their answer context, one token per task however often it renders, none without a baseline', async () => {
    const host = await newHost();
    const task = await createTask(lab, { host_id: host.id, distro: 'debian' });
    const answerUrl = answerUrlIn(await bootScript(lab, host.mac));
    expect((await fetch(answerUrl)).status).toBe(200);
    expect((await fetch(answerUrl)).status).toBe(200);
    const contexts = lab.answers.rendered.filter((context) => context.task.id === task.id);
    expect(contexts.length).toBeGreaterThanOrEqual(2);
    const urls = new Set(contexts.map((context) => context.baseline?.run_sh));
    expect(urls.size).toBe(1);
    const runSh = [...urls][0] ?? '';
    expect(runSh).toMatch(new RegExp(`^${lab.base}/api/v1/baselines/runtime/bwb_[A-Za-z0-9_-]+/run\\.sh$`));
    const tokens = await call<BaselineToken[]>(lab, 'GET', `/baselines/tokens?task_id=${task.id}`);
    expect(tokens.body.data.map((token) => [token.host_id, token.task_id])).toEqual([[host.id, task.id]]);
    expect((await fetch(runSh)).status).toBe(200);

    // A preview shows the step with the token masked and mints nothing.
    const preview = await lab.t.core.area('netboot').tasks.previewContext(task.id);
    expect(preview?.baseline?.run_sh).toContain('/baselines/runtime/TOKEN/run.sh');
    expect((await call<BaselineToken[]>(lab, 'GET', `/baselines/tokens?task_id=${task.id}`)).body.data).toHaveLength(1);

    const bare = await newHost(false);
    const bareTask = await createTask(lab, { host_id: bare.id, distro: 'debian' });
    expect((await fetch(answerUrlIn(await bootScript(lab, bare.mac)))).status).toBe(200);
    expect(lab.answers.rendered.filter((context) => context.task.id === bareTask.id).every((context) => context.baseline === null)).toBe(true);
  });

  it('show the machine\'s baseline run on the task timeline', async () => {
    const host = await newHost();
    const task = await createTask(lab, { host_id: host.id, distro: 'debian' });
    const { token } = await mint(host.id, { task_id: task.id });
    const started = await call<{ run_id: number }>(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { results: [] } });
    await call(lab, 'POST', runtimePath(token, 'results'), { headers: {}, body: { run_id: started.body.data.run_id, results: [], finished: true } });
    const view = await call<{ timeline: { kind: string }[] }>(lab, 'GET', `/netboot/tasks/${task.id}`);
    expect(view.status, view.text).toBe(200);
    expect(view.body.data.timeline.map((item) => item.kind)).toEqual(expect.arrayContaining(['baseline.run.started', 'baseline.run.finished']));
    expect((await call<BaselineRun[]>(lab, 'GET', `/baselines/runs?task_id=${task.id}`)).body.data[0]?.status).toBe('failed');
  });
});

describe('the API document', () => {
  it('describes the runtime routes, the public ones without security', async () => {
    const doc = (await call<never>(lab, 'GET', '/openapi.json', { headers: {} })).text;
    const paths = (JSON.parse(doc) as { paths: Record<string, Record<string, { security?: unknown[] }>> }).paths;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/v1/baselines/tokens', '/api/v1/baselines/runs/{id}', '/api/v1/baselines/runtime/{token}/run.sh', '/api/v1/baselines/runtime/{token}/report']));
    expect(paths['/api/v1/baselines/runtime/{token}/scripts']?.get?.security ?? []).toEqual([]);
    expect(paths['/api/v1/baselines/tokens']?.post?.security?.length).toBeGreaterThan(0);
  });
});
