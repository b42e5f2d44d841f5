import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { NetbootMirror } from '../../helpers/netboot-mirror.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { netbootFixture } from './files-fixture.js';

/* Install tasks and the files part together: a new task downloads what is only on the mirror, or says what is missing. */

let mirror: NetbootMirror;
let t: TestCore;
const events: AppEvent[] = [];

beforeAll(async () => {
  mirror = await new NetbootMirror().start();
  t = await createTestCore({ netboot: { catalogReader: netbootFixture(mirror) } });
  t.core.kernel.events.subscribe((event) => events.push(event));
});
afterAll(async () => {
  await t?.close();
  await mirror?.close();
});

async function until<T>(probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('not within 10 s');
}

describe('a new install task and its boot files', () => {
  it('starts downloading the files only the mirror has, so the machine does not wait for them at boot', async () => {
    const netboot = t.core.area('netboot');
    const resolved = netboot.tasks.service.resolve({ distro: 'debian', version: '12', arch: 'x86_64' });
    expect((await netboot.files.source.check(resolved)).availability).toBe('remote');
    const task = await netboot.tasks.service.create({ mac: '52:54:00:f1:00:01', distro: 'debian' });
    expect(task.message).toBe('');
    const done = await until(() => events.find((event) => event.kind === 'netboot.prefetch.done'));
    expect(done.detail).toMatchObject({ distro: 'debian', version: '12', arch: 'x86_64' });
    expect((await netboot.files.source.check(resolved)).availability).toBe('cached');
    expect(mirror.requests.map((request) => request.path).filter((p) => p.endsWith('/linux') || p.endsWith('/initrd.gz'))).toHaveLength(2);
  });

  it('offline, a task whose files are only remote is created with the problem as its message, and nothing is requested', async () => {
    await t.core.kernel.settings.update({ netboot: { offline: true } });
    const requests = mirror.requests.length;
    const task = await t.core.area('netboot').tasks.service.create({ mac: '52:54:00:f1:00:02', distro: 'fedora', version: '40', arch: 'x86_64' });
    expect(task.message).toMatch(/^fedora 40 x86_64 cannot boot offline: vmlinuz is not in the download cache .*POST \/netboot\/prefetch/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mirror.requests.length).toBe(requests);
    expect(events.filter((event) => event.kind === 'netboot.prefetch.done' && event.detail?.distro === 'fedora')).toEqual([]);
  });
});
