import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../../src-main/core/logger.js';
import type { RuntimeTask } from '../../../src-main/netboot/netboot-contract.js';
import { answerUrlIn, bootScript, call, createTask, eventsSince, lastEventId, nextMac, tasksLab, type TasksLab } from './tasks-kit.js';

let lab: TasksLab;
const logLines: string[] = [];
const tokens: string[] = [];

beforeAll(async () => {
  lab = await tasksLab();
  lab.t.core.kernel.logs.setLevel('debug');
  lab.t.core.kernel.logs.subscribe((record: LogRecord) => logLines.push(JSON.stringify(record)));
});
afterAll(async () => lab.close());

/** A task booted once, with its answer URL and token (kept for the leak check at the end). */
async function bootedTask(distro = 'debian'): Promise<{ id: number; mac: string; answerUrl: string; token: string }> {
  const mac = nextMac();
  const created = await createTask(lab, { mac, distro });
  const answerUrl = answerUrlIn(await bootScript(lab, mac));
  const token = new URL(answerUrl).searchParams.get('token') ?? '';
  tokens.push(token);
  return { id: created.id, mac, answerUrl, token };
}

async function get(url: string, init?: RequestInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

describe('GET /netboot/answer/{task_id}', () => {
  it('answers only with the task\'s own token: none, another task\'s, a wrong one or an unknown task are the same 404', async () => {
    const a = await bootedTask();
    const b = await bootedTask();
    const api = `${lab.base}/api/v1/netboot/answer`;
    const before = lastEventId(lab);
    const refusals = [
      await get(`${api}/${a.id}`),
      await get(`${api}/${a.id}?token=`),
      await get(`${api}/${a.id}?token=${b.token}`),
      await get(`${api}/${b.id}?token=${a.token}`),
      await get(`${api}/${a.id}?token=${a.token.slice(0, -2)}xx`),
      await get(`${api}/999999?token=${a.token}`),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(404);
      expect(JSON.parse(refusal.text)).toMatchObject({ success: false, code: 'NOT_FOUND', error: 'not found' });
    }
    const refused = eventsSince(lab, before, 'netboot.answer_refused');
    expect(refused.map((event) => event.detail?.reason)).toEqual(['no_token', 'no_token', 'wrong_token', 'wrong_token', 'wrong_token', 'unknown_task']);
    expect(eventsSince(lab, before, 'netboot.answer_fetched')).toEqual([]);

    const ok = await fetch(a.answerUrl);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.text()).toContain(`install task ${a.id} (${a.mac})`);
    const context = lab.answers.rendered.at(-1);
    expect(context).toMatchObject({ task: { id: a.id, distro: 'debian', version: '12', arch: 'x86_64' }, host: { mac: a.mac }, urls: { answer: a.answerUrl } });
    expect(eventsSince(lab, before, 'netboot.answer_fetched')).toEqual([expect.objectContaining({ mac: a.mac, ip: '127.0.0.1', detail: expect.objectContaining({ task_id: a.id, file: 'answer' }) })]);
  });

  it('is gone (410) once the task is done, cancelled or expired, and so is its callback', async () => {
    const done = await bootedTask();
    expect((await get(`${lab.base}/api/v1/netboot/callback/${done.id}/${done.token}/done`)).status).toBe(200);
    expect((await get(done.answerUrl)).status).toBe(410);
    expect(JSON.parse((await get(done.answerUrl)).text)).toMatchObject({ code: 'GONE' });

    const cancelled = await bootedTask();
    expect((await call(lab, 'PUT', `/netboot/tasks/${cancelled.id}`, { body: { state: 'cancelled' } })).status).toBe(200);
    expect((await get(cancelled.answerUrl)).status).toBe(410);

    const expiring = await bootedTask();
    lab.clock.now += 25 * 60 * 60_000;
    expect((await get(expiring.answerUrl)).status).toBe(410);
    expect(lab.t.core.area('netboot').tasks.service.require(expiring.id)).toMatchObject({ state: 'expired' });
    expect((await get(`${lab.base}/api/v1/netboot/callback/${expiring.id}/${expiring.token}/installing`)).status).toBe(410);
    // Gone only with the right token: a wrong one is still a 404.
    expect((await get(`${lab.base}/api/v1/netboot/answer/${expiring.id}?token=${done.token}`)).status).toBe(404);
  });
});

describe('the progress callback', () => {
  it('moves the task and records netboot.callback; a transition the states forbid is a 409; a bad state a 400', async () => {
    const task = await bootedTask();
    const url = `${lab.base}/api/v1/netboot/callback/${task.id}/${task.token}`;
    const before = lastEventId(lab);
    expect((await get(`${url}/installing`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' })).status).toBe(200);
    expect((await get(`${url}/failed?message=${encodeURIComponent('disk not found')}`)).status).toBe(200);
    expect(lab.t.core.area('netboot').tasks.service.require(task.id)).toMatchObject({ state: 'failed', message: 'disk not found' });
    expect(eventsSince(lab, before, 'netboot.callback').map((event) => event.detail)).toEqual([
      expect.objectContaining({ task_id: task.id, state: 'installing' }),
      expect.objectContaining({ task_id: task.id, state: 'failed', message: 'disk not found' }),
    ]);
    expect((await get(`${url}/rebooting`)).status).toBe(400);
    const fresh = await bootedTask();
    await lab.t.core.area('netboot').tasks.service.transition(fresh.id, 'installing', '', 'callback');
    // installing → pending is no callback state; installing → done is fine, done → installing is not.
    expect((await get(`${lab.base}/api/v1/netboot/callback/${fresh.id}/${fresh.token}/done`)).status).toBe(200);
    expect((await get(`${lab.base}/api/v1/netboot/callback/${fresh.id}/${fresh.token}/installing`)).status).toBe(410);
  });
});

describe('GET /netboot/task/by-mac/{mac}', () => {
  it('tells the machine itself its active task, and 404s every other address, MAC and state', async () => {
    const task = await bootedTask();
    const mine = await call<RuntimeTask>(lab, 'GET', `/netboot/task/by-mac/${task.mac.replaceAll(':', '-')}`, { headers: {} });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      task_id: task.id,
      state: 'booting',
      distro: 'debian',
      kernel_url: expect.stringMatching(/\/boot\/netboot\/debian\/12\/x86_64\/linux$/),
      initrd_urls: [expect.stringMatching(/\/initrd\.gz$/)],
      answer_url: expect.stringContaining(`/api/v1/netboot/answer/${task.id}?token=`),
    });
    expect(mine.body.data.cmdline).toContain('preseed/url=');
    const before = lastEventId(lab);
    const foreign = await call(lab, 'GET', `/netboot/task/by-mac/${task.mac}`, { headers: {}, remoteAddress: '10.9.9.9' });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(String(task.id));
    expect(eventsSince(lab, before, 'netboot.answer_refused').at(-1)).toMatchObject({ ip: '10.9.9.9', detail: expect.objectContaining({ route: 'by-mac', reason: 'foreign_address' }) });
    expect((await call(lab, 'GET', `/netboot/task/by-mac/${nextMac()}`, { headers: {} })).status).toBe(404);
    expect((await call(lab, 'GET', '/netboot/task/by-mac/not-a-mac', { headers: {} })).status).toBe(404);
  });
});

describe('cloud-init seed files', () => {
  it('serve user-data (the answer), meta-data (instance id and hostname) and vendor-data under the token', async () => {
    const mac = nextMac();
    const created = await createTask(lab, { mac, distro: 'ubuntu', variables: { hostname: 'seeded' } });
    const script = await bootScript(lab, mac);
    const seed = /;s=(\S+\/)/.exec(script)?.[1] ?? '';
    tokens.push(seed.split('/').at(-2) ?? '');
    expect(seed).toMatch(new RegExp(`/api/v1/netboot/answer/${created.id}/[A-Za-z0-9_-]{43}/$`));
    expect((await get(`${seed}user-data`)).text).toContain(`autoinstall for install task ${created.id}`);
    expect((await get(`${seed}meta-data`)).text).toBe(`instance-id: bootwright-task-${created.id}\nlocal-hostname: seeded\n`);
    expect(await get(`${seed}vendor-data`)).toEqual({ status: 200, text: '' });
    expect((await get(`${seed.replace(/\/[A-Za-z0-9_-]{43}\/$/, '/wrongtoken/')}meta-data`)).status).toBe(404);
  });
});

describe('rate limits', () => {
  it('answer 429 with Retry-After past a source\'s burst, and the refusal events stay within their budget', async () => {
    const before = lastEventId(lab);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const reply = await call(lab, 'GET', `/netboot/answer/1?token=${'x'.repeat(43)}`, { headers: {}, remoteAddress: '10.7.7.7' });
      statuses.push(reply.status);
      if (reply.status === 429) expect(reply.headers['retry-after']).toBe('1');
    }
    expect(statuses.filter((status) => status === 404).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(30);
    expect(eventsSince(lab, before, 'netboot.answer_refused').length).toBeLessThanOrEqual(20);
    // Another source is not affected.
    expect((await call(lab, 'GET', `/netboot/answer/1?token=${'x'.repeat(43)}`, { headers: {}, remoteAddress: '10.7.7.8' })).status).toBe(404);
  });
});

describe('secrets', () => {
  it('no token reaches an event, a log line, an audit row or any file of the data dir', async () => {
    await lab.t.core.kernel.audit.flush();
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    const events = JSON.stringify(lab.t.core.kernel.events.all());
    const audit = JSON.stringify(lab.t.core.kernel.audit.all());
    const logs = logLines.join('\n');
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else files.push(await readFile(full, 'latin1'));
      }
    };
    await walk(lab.t.dataDir);
    expect(files.some((text) => text.includes('netboot.task.created'))).toBe(true);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(events).not.toContain(token);
      expect(audit).not.toContain(token);
      expect(logs).not.toContain(token);
      for (const text of files) expect(text.includes(token)).toBe(false);
    }
  });
});
