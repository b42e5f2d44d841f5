import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretDigest } from '../../../../src-main/auth/secrets.js';
import { BASELINE_TOKENS_COLLECTION, BaselineTokens, deriveTaskToken } from '../../../../src-main/baselines/runtime/runtime-tokens.js';
import { DEFAULT_TOKEN_TTL_MINUTES } from '../../../../src-main/baselines/baselines-contract.js';
import { Store } from '../../../../src-main/store/store.js';
import { tempDir } from '../../../helpers/test-core.js';
import { FakeClock, HOUR, MINUTE } from '../../auth/fake-clock.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

describe('baseline runtime tokens', () => {
  let store: Store;
  let dir: { dir: string; remove: () => Promise<void> };
  let clock: FakeClock;
  let tokens: BaselineTokens;

  beforeEach(async () => {
    dir = await tempDir();
    store = await Store.open({ dataDir: dir.dir });
    clock = new FakeClock();
    tokens = new BaselineTokens(store, clock.now);
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('returns the secret once, stores only its SHA-256, and expires after the default lifetime', async () => {
    const { row, token } = await tokens.create({ host_id: 7 }, 'alice');
    expect(token).toMatch(/^bwb_[A-Za-z0-9_-]{43}$/);
    expect(row.digest).toBe(secretDigest(token));
    expect(row).toMatchObject({ host_id: 7, task_id: null, created_by: 'alice', revoked_at: null, last_used_at: null });
    expect(Date.parse(row.expires_at) - clock.nowMs()).toBe(DEFAULT_TOKEN_TTL_MINUTES * MINUTE);
    for (const file of await filesUnder(dir.dir)) expect(await readFile(file, 'utf8'), file).not.toContain(token);
    expect(tokens.list({}).data[0]).not.toHaveProperty('digest');

    expect((await tokens.resolve(token))?.id).toBe(row.id);
    clock.advance(DEFAULT_TOKEN_TTL_MINUTES * MINUTE - 1);
    expect((await tokens.resolve(token))?.id).toBe(row.id);
    clock.advance(1);
    expect(await tokens.resolve(token)).toBeNull();
  });

  it('refuses revoked, unknown and malformed tokens alike, and notes the use at most once a minute', async () => {
    const { row, token } = await tokens.create({ host_id: 1, ttl_minutes: 60 }, 'alice');
    expect((await tokens.resolve(token))?.last_used_at).toBe(clock.now().toISOString());
    const firstUse = tokens.get(row.id)?.last_used_at;
    clock.advance(30_000);
    await tokens.resolve(token);
    expect(tokens.get(row.id)?.last_used_at).toBe(firstUse);
    clock.advance(30_000);
    await tokens.resolve(token);
    expect(tokens.get(row.id)?.last_used_at).toBe(clock.now().toISOString());

    // Its last character changed (to one it is not: a token ending in A once made this the same token).
    const changed = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(changed).not.toBe(token);
    expect(await tokens.resolve(changed)).toBeNull();
    expect(await tokens.resolve(token.slice(4))).toBeNull();
    expect(await tokens.resolve('bwb_short')).toBeNull();
    const revoked = await tokens.revoke(row.id);
    expect(revoked.revoked_at).toBe(clock.now().toISOString());
    expect(await tokens.resolve(token)).toBeNull();
    clock.advance(HOUR / 2);
    expect((await tokens.revoke(row.id)).revoked_at).toBe(revoked.revoked_at);
    await expect(tokens.revoke(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('gives an install task the same token on every render, derived from the task token, and a new one when that changes', async () => {
    const first = tokens.forTask(3, 11, 'task-token-aaaaaaaaaaaaaaaa');
    await first.committed;
    expect(first.token).toBe(deriveTaskToken('task-token-aaaaaaaaaaaaaaaa', first.row.id));
    expect(first.row).toMatchObject({ host_id: 3, task_id: 11, derived: true, digest: secretDigest(first.token) });
    expect((await tokens.resolve(first.token))?.id).toBe(first.row.id);

    const again = tokens.forTask(3, 11, 'task-token-aaaaaaaaaaaaaaaa');
    expect(again.token).toBe(first.token);
    expect(store.collection(BASELINE_TOKENS_COLLECTION).size).toBe(1);

    // A restarted task has a new token: the old runner URL is not reproduced, a new row is made.
    const restarted = tokens.forTask(3, 11, 'task-token-bbbbbbbbbbbbbbbb');
    await restarted.committed;
    expect(restarted.token).not.toBe(first.token);
    expect(restarted.row.id).not.toBe(first.row.id);

    // A revoked token is never handed out again, nor one with less than a quarter of its life left.
    await tokens.revoke(restarted.row.id);
    const afterRevoke = tokens.forTask(3, 11, 'task-token-bbbbbbbbbbbbbbbb');
    expect(afterRevoke.row.id).not.toBe(restarted.row.id);
    clock.advance(DEFAULT_TOKEN_TTL_MINUTES * MINUTE * 0.8);
    const late = tokens.forTask(3, 11, 'task-token-bbbbbbbbbbbbbbbb');
    expect(late.row.id).not.toBe(afterRevoke.row.id);
    // Another task of the host never shares it.
    expect(tokens.forTask(3, 12, 'task-token-bbbbbbbbbbbbbbbb').row.id).not.toBe(late.row.id);
  });

  it('lists by host and task, newest first, without secrets', async () => {
    await tokens.create({ host_id: 1 }, 'a');
    await tokens.create({ host_id: 2, task_id: 5 }, 'a');
    await tokens.create({ host_id: 2 }, 'a');
    expect(tokens.list({ host_id: 2 }).data.map((token) => token.task_id)).toEqual([null, 5]);
    expect(tokens.list({ task_id: 5 }).meta.total).toBe(1);
  });
});
