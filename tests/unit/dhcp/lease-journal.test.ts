import { open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LeaseDatabase, leaseNameSource, type Lease } from '../../../src-main/dhcp/leases.js';
import { LogSink } from '../../../src-main/core/logger.js';
import { tempDir } from '../../helpers/test-core.js';

const log = new LogSink({ logDir: null, level: 'error', console: false }).logger('test');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function dir(): Promise<string> {
  const temp = await tempDir('bw-leases-');
  cleanups.push(temp.remove);
  return temp.dir;
}

function lease(n: number, overrides: Partial<Lease> = {}): Lease {
  const now = Date.now();
  return {
    mac: `52:54:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`,
    ip: (10 << 24) + n,
    starts: now,
    expires: now + 3_600_000,
    hostname: `host${n}`,
    clientId: null,
    vendorClass: null,
    arch: null,
    ...overrides,
  };
}

describe('lease journal', () => {
  it('keeps committed leases, expiries, deletions and quarantines across a reopen', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log });
    for (let n = 1; n <= 50; n += 1) db.commit(lease(n));
    db.expire(lease(2).mac, Date.now());
    db.remove(lease(3).mac);
    db.quarantine((10 << 24) + 200, Date.now() + 60_000);
    await db.durable();
    // No close(): the reopen reads what a crash would leave.
    const again = await LeaseDatabase.open({ dir: where, log });
    expect(again.size).toBe(49);
    expect(again.get(lease(1).mac)?.hostname).toBe('host1');
    expect(LeaseDatabase.state(again.get(lease(2).mac)!, Date.now())).toBe('expired');
    expect(again.get(lease(3).mac)).toBeUndefined();
    expect(again.isQuarantined((10 << 24) + 200, Date.now())).toBe(true);
    await again.close();
    await db.close();
  });

  it('runs whenDurable callbacks after the batch is written', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log });
    db.commit(lease(7));
    const order: string[] = [];
    await new Promise<void>((resolve) => db.whenDurable(() => {
      order.push('durable');
      resolve();
    }));
    const files = (await readdir(where)).filter((name) => /^leases\.\d+\.jsonl$/.test(name));
    const text = (await Promise.all(files.map((name) => readFile(path.join(where, name), 'utf8')))).join('');
    expect(text).toContain(lease(7).mac);
    expect(order).toEqual(['durable']);
    await db.close();
  });

  it('ignores a torn last line and never appends after it', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log });
    db.commit(lease(1));
    await db.durable();
    const journal = path.join(where, (await readdir(where)).find((name) => /^leases\.\d+\.jsonl$/.test(name))!);
    // A crash in the middle of a batch: part of a record after the last whole one, then the zero fill.
    const end = (await readFile(journal)).indexOf(0);
    expect(end).toBeGreaterThan(0);
    const handle = await open(journal, 'r+');
    await handle.write('{"t":"L","m":"52:54:00:00:00:02","i":"10.0', end);
    await handle.close();
    const again = await LeaseDatabase.open({ dir: where, log });
    expect(again.size).toBe(1);
    again.commit(lease(3));
    await again.durable();
    const third = await LeaseDatabase.open({ dir: where, log });
    expect(third.get(lease(3).mac)).toBeDefined();
    expect(third.size).toBe(2);
    for (const d of [third, again, db]) await d.close();
  });

  it('grows the zero-filled journal stretch as batches pass its end', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log, compactAfter: 1_000_000 });
    // ~40,000 records of ~190 bytes: more than the first 8 MiB stretch.
    for (let n = 1; n <= 40_000; n += 1) {
      db.commit(lease(n, { hostname: `host-with-a-longer-name-${n}`, vendorClass: 'PXEClient:Arch:00007:UNDI:003016' }));
      if (n % 5000 === 0) await db.durable();
    }
    await db.durable();
    const journal = (await readdir(where)).find((name) => /^leases\.\d+\.jsonl$/.test(name))!;
    const size = (await readFile(path.join(where, journal))).length;
    expect(size).toBeGreaterThan(8 * 1024 * 1024);
    const again = await LeaseDatabase.open({ dir: where, log });
    expect(again.size).toBe(40_000);
    expect(again.get(lease(40_000).mac)?.hostname).toBe('host-with-a-longer-name-40000');
    await again.close();
    await db.close();
  });

  it('compacts into a snapshot and drops the journals it covers', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log, compactAfter: 100 });
    for (let round = 0; round < 5; round += 1) {
      for (let n = 1; n <= 60; n += 1) db.commit(lease(n, { starts: round }));
      await db.durable();
    }
    await db.compact();
    const names = await readdir(where);
    expect(names).toContain('leases.snapshot.jsonl');
    expect(names.filter((name) => /^leases\.\d+\.jsonl$/.test(name)).length).toBeLessThanOrEqual(2);
    for (let n = 61; n <= 70; n += 1) db.commit(lease(n));
    await db.durable();
    const again = await LeaseDatabase.open({ dir: where, log });
    expect(again.size).toBe(70);
    expect(again.get(lease(5).mac)?.starts).toBe(4);
    await again.close();
    await db.close();
  });

  it('gives a committed address a new owner and forgets the old expired lease', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log });
    const old = lease(1, { expires: Date.now() - 1000 });
    db.commit(old);
    db.commit(lease(2, { ip: old.ip }));
    expect(db.get(old.mac)).toBeUndefined();
    expect(db.byIp(old.ip)?.mac).toBe(lease(2).mac);
    await db.durable();
    const again = await LeaseDatabase.open({ dir: where, log });
    expect(again.get(old.mac)).toBeUndefined();
    expect(again.byIp(old.ip)?.mac).toBe(lease(2).mac);
    await again.close();
    await db.close();
  });

  it('feeds active leases with a hostname to DNS and notifies on change', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log, notifyDelayMs: 1 });
    const source = leaseNameSource(db);
    let calls = 0;
    const notified = new Promise<void>((resolve) => source.onChange(() => {
      calls += 1;
      resolve();
    }));
    db.commit(lease(1));
    db.commit(lease(2, { hostname: null }));
    db.commit(lease(3, { expires: Date.now() - 1 }));
    await notified;
    expect(calls).toBe(1);
    expect([...source.entries()]).toEqual([{ hostname: 'host1', ipv4: '10.0.0.1' }]);
    await db.close();
  });

  it('reports each expiry once', async () => {
    const where = await dir();
    const db = await LeaseDatabase.open({ dir: where, log });
    db.commit(lease(1, { expires: Date.now() + 10 }));
    expect(db.sweepExpired(Date.now())).toHaveLength(0);
    expect(db.sweepExpired(Date.now() + 20)).toHaveLength(1);
    expect(db.sweepExpired(Date.now() + 30)).toHaveLength(0);
    expect(db.prune(Date.now() + 30)).toBe(1);
    expect(db.size).toBe(0);
    await db.close();
  });
});
