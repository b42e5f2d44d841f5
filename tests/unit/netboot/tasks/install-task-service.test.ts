import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../../src-main/core/secret-box.js';
import { EventLog } from '../../../../src-main/events/event-log.js';
import type { Host } from '../../../../src-main/hosts/host-types.js';
import { InstallTaskService } from '../../../../src-main/netboot/tasks/install-task-service.js';
import { Store } from '../../../../src-main/store/store.js';
import { fakeAnswers, fakeCatalog, recordingLogger } from '../../../helpers/netboot-fakes.js';
import { tempDir } from '../../../helpers/test-core.js';

const MAC = '52:54:00:aa:00:01';
const HOST: Host = {
  id: 5,
  mac: '52:54:00:aa:00:05',
  hostname: 'node5',
  ip: null,
  group: null,
  tags: [],
  description: '',
  profile_id: null,
  arch: 'arm64',
  platform: 'efi',
  enabled: true,
  boot_loader: null,
  discovered: false,
  last_boot_at: null,
  last_seen_ip: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
} as Host;

let store: Store;
let events: EventLog;
let remove: () => Promise<void>;
let dataDir: string;
let now: Date;
let tasks: InstallTaskService;

beforeEach(async () => {
  const dir = await tempDir();
  remove = dir.remove;
  dataDir = dir.dir;
  store = await Store.open({ dataDir: dir.dir });
  events = new EventLog(store);
  now = new Date('2026-03-01T10:00:00.000Z');
  tasks = new InstallTaskService({
    store,
    events,
    log: recordingLogger(),
    secrets: new SecretBox(dir.dir),
    settings: { netboot: () => ({ task_expiry_minutes: 60 }) },
    catalog: fakeCatalog(),
    answers: fakeAnswers(),
    hosts: { get: (id) => (id === HOST.id ? HOST : undefined), findByMac: (mac) => (mac === HOST.mac ? HOST : undefined) },
    now: () => now,
  });
});

afterEach(async () => {
  tasks.stop();
  await store.close();
  await remove();
});

describe('InstallTaskService', () => {
  it('creates a pending task with the entry defaults, a normalised MAC, a sealed token and a created event', async () => {
    const row = await tasks.create({ mac: '52-54-00-AA-00-01', distro: 'debian' });
    expect(row).toMatchObject({ mac: MAC, host_id: null, distro: 'debian', version: '12', arch: 'x86_64', state: 'pending', template_id: null, answer_kind: 'preseed', after_install: 'local_disk' });
    expect(row.expires_at).toBe('2026-03-01T11:00:00.000Z');
    const token = await tasks.token(row);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await tasks.tokenMatches(row, token)).toBe(true);
    expect(await tasks.tokenMatches(row, 'x'.repeat(43))).toBe(false);
    const created = events.all().filter((e) => e.kind === 'netboot.task.created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ mac: MAC, detail: { task_id: row.id, distro: 'debian', version: '12' } });
    expect(JSON.stringify(events.all())).not.toContain(token);
  });

  it('links a host by id or by MAC, and takes the host\'s recorded arch when the catalog knows it', async () => {
    await expect(tasks.create({ host_id: HOST.id, distro: 'debian' })).rejects.toThrow(/architecture of debian 12 arm64 not found/);
    const byMac = await tasks.create({ mac: HOST.mac, distro: 'debian', arch: 'x86_64' });
    expect(byMac).toMatchObject({ host_id: HOST.id, mac: HOST.mac, arch: 'x86_64' });
    await expect(tasks.create({ host_id: 99, distro: 'debian' })).rejects.toThrow(/host 99 does not exist/);
    await expect(tasks.create({ host_id: HOST.id, mac: MAC, distro: 'debian' })).rejects.toThrow(/has MAC 52:54:00:aa:00:05, not 52:54:00:aa:00:01/);
    await expect(tasks.create({ distro: 'debian' })).rejects.toThrow(/host_id or mac/);
    await expect(tasks.create({ mac: '01:00:5e:00:00:01', distro: 'debian' })).rejects.toThrow(/multicast/);
  });

  it('allows one active task per MAC (409 naming it), and a new one once the first is final', async () => {
    const first = await tasks.create({ mac: MAC, distro: 'debian' });
    await expect(tasks.create({ mac: MAC, distro: 'debian', version: '11' })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(`install task ${first.id} (pending`) });
    // Two creates at once: the check and the write do not interleave.
    const other = '52:54:00:aa:00:02';
    const results = await Promise.allSettled([tasks.create({ mac: other, distro: 'debian' }), tasks.create({ mac: other, distro: 'debian' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await tasks.update(first.id, { state: 'cancelled' });
    await expect(tasks.create({ mac: MAC, distro: 'debian' })).resolves.toMatchObject({ state: 'pending' });
  });

  it('checks the template against the entry\'s answer kind', async () => {
    await expect(tasks.create({ mac: MAC, distro: 'debian', template_id: 2 })).rejects.toThrow(/is a kickstart template; Debian reads preseed/);
    await expect(tasks.create({ mac: MAC, distro: 'debian', template_id: 9 })).rejects.toThrow(/answer template 9 does not exist/);
    await expect(tasks.create({ mac: MAC, distro: 'memtest86plus', template_id: 1 })).rejects.toThrow(/without an answer file/);
    await expect(tasks.create({ mac: MAC, distro: 'debian', template_id: 1 })).resolves.toMatchObject({ template_id: 1, template_version: 3 });
  });

  it('records every transition with its time and emits netboot.task.state; refuses the ones the table forbids', async () => {
    const row = await tasks.create({ mac: MAC, distro: 'debian' });
    now = new Date('2026-03-01T10:01:00.000Z');
    await tasks.transition(row.id, 'booting', 'installer served', 'boot');
    now = new Date('2026-03-01T10:02:00.000Z');
    await tasks.transition(row.id, 'installing', 'early command', 'callback');
    // A repeated callback is a no-op.
    await tasks.transition(row.id, 'installing', 'again', 'callback');
    now = new Date('2026-03-01T10:30:00.000Z');
    const done = await tasks.transition(row.id, 'done', '', 'callback');
    expect(done).toMatchObject({ state: 'done', started_at: '2026-03-01T10:01:00.000Z', finished_at: '2026-03-01T10:30:00.000Z' });
    expect(done.transitions.map((t) => `${t.from ?? '-'}>${t.to}@${t.at.slice(11, 16)}:${t.source}`)).toEqual([
      '->pending@10:00:api',
      'pending>booting@10:01:boot',
      'booting>installing@10:02:callback',
      'installing>done@10:30:callback',
    ]);
    const states = events.all().filter((e) => e.kind === 'netboot.task.state').map((e) => e.detail);
    expect(states).toEqual([
      expect.objectContaining({ task_id: row.id, from: 'pending', to: 'booting' }),
      expect.objectContaining({ from: 'booting', to: 'installing' }),
      expect.objectContaining({ from: 'installing', to: 'done' }),
    ]);
    await expect(tasks.transition(row.id, 'installing', '', 'callback')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(tasks.update(row.id, { state: 'pending' })).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(tasks.update(row.id, { variables: { a: 'b' } })).rejects.toThrow(/restart it/);
  });

  it('expires overdue tasks on a manual clock, and a restart gives a new token and a new expiry', async () => {
    const row = await tasks.create({ mac: MAC, distro: 'debian', expires_in_minutes: 10 });
    const oldToken = await tasks.token(row);
    now = new Date('2026-03-01T10:09:59.000Z');
    expect(await tasks.expireOverdue()).toBe(0);
    now = new Date('2026-03-01T10:10:00.000Z');
    expect(await tasks.expireOverdue()).toBe(1);
    const expired = tasks.require(row.id);
    expect(expired).toMatchObject({ state: 'expired', message: 'expired after 10 minutes', finished_at: '2026-03-01T10:10:00.000Z' });
    expect(expired.transitions.at(-1)).toMatchObject({ from: 'pending', to: 'expired', source: 'expiry' });
    now = new Date('2026-03-01T12:00:00.000Z');
    const restarted = await tasks.update(row.id, { state: 'pending', variables: { hostname: 'again' } });
    expect(restarted).toMatchObject({ state: 'pending', expires_at: '2026-03-01T12:10:00.000Z', finished_at: null, variables: { hostname: 'again' } });
    expect(await tasks.tokenMatches(restarted, oldToken)).toBe(false);
    expect(await tasks.tokenMatches(restarted, await tasks.token(restarted))).toBe(true);
  });

  it('expires through its timer, and stop() clears it', async () => {
    const timed = new InstallTaskService({
      store,
      events,
      log: recordingLogger(),
      secrets: new SecretBox(dataDir),
      settings: { netboot: () => ({ task_expiry_minutes: 5 }) },
      catalog: fakeCatalog(),
      answers: fakeAnswers(),
      hosts: { get: () => undefined, findByMac: () => undefined },
      now: () => now,
      expiryCheckMs: 5,
    });
    const row = await timed.create({ mac: '52:54:00:aa:00:09', distro: 'debian' });
    now = new Date(now.getTime() + 6 * 60_000);
    timed.start();
    for (let i = 0; i < 200 && timed.require(row.id).state !== 'expired'; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    timed.stop();
    expect(timed.require(row.id).state).toBe('expired');
  });

  it('lists with filters and the paging conventions', async () => {
    const a = await tasks.create({ mac: MAC, distro: 'debian' });
    await tasks.create({ mac: HOST.mac, distro: 'debian', arch: 'x86_64' });
    await tasks.update(a.id, { state: 'cancelled' });
    expect(tasks.list({ state: 'cancelled' }).data.map((r) => r.id)).toEqual([a.id]);
    expect(tasks.list({ mac: '52-54-00-AA-00-05' }).data).toHaveLength(1);
    expect(tasks.list({ host_id: HOST.id }).data).toHaveLength(1);
    expect(tasks.list({}).data.map((r) => r.id)).toEqual([a.id + 1, a.id]);
    expect(() => tasks.list({ mac: 'nope' })).toThrow(/not a MAC address/);
  });
});
