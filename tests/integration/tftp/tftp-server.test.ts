import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { patternBytes, startTftpCore, type TftpCore } from './tftp-harness.js';
import { tftpGet } from './tftp-client.js';

const SMALL = patternBytes(3000, 7);
const EXACT = patternBytes(512 * 4, 9);
const LARGE = patternBytes(300_000, 11);

let t: TftpCore;
beforeAll(async () => {
  t = await startTftpCore({
    files: { 'small.bin': SMALL, 'exact.bin': EXACT, 'large.bin': LARGE, 'dir/nested.txt': 'line one\nline two\n', 'empty.bin': Buffer.alloc(0) },
    settings: { max_blksize: 8192 },
  });
  // A secret next to the root, and links that lead out of it.
  const outside = path.join(path.dirname(t.root), 'secret.txt');
  await writeFile(outside, 'secret');
  await symlink(outside, path.join(t.root, 'escape.txt'));
  await symlink(path.dirname(t.root), path.join(t.root, 'updir'));
  await mkdir(path.join(t.root, 'inside'), { recursive: true });
  await symlink(path.join(t.root, 'small.bin'), path.join(t.root, 'inside', 'link-in-root.bin'));
});
afterAll(async () => t?.close());

function tftpEvents(kind: string): AppEvent[] {
  return t.core.kernel.events.all().filter((event) => event.kind === kind);
}

describe('TFTP read requests (RFC 1350)', () => {
  it('serves a file in octet mode, lock-step with 512-byte blocks, from its own port', async () => {
    const res = await tftpGet({ port: t.port, file: 'small.bin' });
    expect(res.error).toBeNull();
    expect(res.oack).toBeNull();
    expect(res.data.equals(SMALL)).toBe(true);
    expect(res.serverPort).not.toBe(t.port);
    expect(res.duplicateData).toBe(0);
  });

  it('ends a file of a whole number of blocks with an empty block, and serves empty files', async () => {
    const exact = await tftpGet({ port: t.port, file: 'exact.bin' });
    expect(exact.data.equals(EXACT)).toBe(true);
    expect(exact.dataPackets).toBe(5);
    const empty = await tftpGet({ port: t.port, file: 'empty.bin' });
    expect(empty.error).toBeNull();
    expect(empty.data.length).toBe(0);
  });

  it('converts line ends in netascii mode', async () => {
    const res = await tftpGet({ port: t.port, file: 'dir/nested.txt', mode: 'netascii' });
    expect(res.data.toString('latin1')).toBe('line one\r\nline two\r\n');
  });

  it('negotiates blksize (capped by max_blksize), tsize, timeout and windowsize', async () => {
    const res = await tftpGet({ port: t.port, file: 'large.bin', options: { blksize: '65464', tsize: '0', timeout: '3', windowsize: '16' } });
    expect(res.oack).toEqual({ blksize: '8192', tsize: String(LARGE.length), timeout: '3', windowsize: '12' });
    expect(res.data.equals(LARGE)).toBe(true);
  });

  it('emits started and completed events with client, file, bytes and duration', async () => {
    const res = await tftpGet({ port: t.port, file: 'small.bin', options: { blksize: '1468' } });
    expect(res.error).toBeNull();
    await expect.poll(() => tftpEvents('tftp.transfer.completed').filter((e) => e.detail?.blksize === 1468).length).toBe(1);
    const completed = tftpEvents('tftp.transfer.completed').find((e) => e.detail?.blksize === 1468)!;
    expect(completed).toMatchObject({ level: 'info', ip: '127.0.0.1' });
    expect(completed.detail).toMatchObject({ file: 'small.bin', bytes: SMALL.length, size: SMALL.length, virtual: false, mode: 'octet' });
    expect(typeof completed.detail?.duration_ms).toBe('number');
    expect(String(completed.detail?.client)).toMatch(/^127\.0\.0\.1:\d+$/);
    const started = tftpEvents('tftp.transfer.started').find((e) => e.detail?.transfer_id === completed.detail?.transfer_id);
    expect(started?.detail).toMatchObject({ file: 'small.bin', blksize: 1468 });
  });
});

describe('TFTP reliability', () => {
  it('recovers from lost ACKs by retransmitting on its timer (lock-step)', async () => {
    const res = await tftpGet({
      port: t.port,
      file: 'small.bin',
      options: { timeout: '1' },
      retransmitMs: 5000,
      behaviour: { dropAck: (block, attempt) => (block === 2 || block === 4) && attempt === 1 },
    });
    expect(res.error).toBeNull();
    expect(res.data.equals(SMALL)).toBe(true);
  });

  it('does not double its blocks on duplicate ACKs (no Sorcerer\'s Apprentice)', async () => {
    const res = await tftpGet({ port: t.port, file: 'small.bin', behaviour: { duplicateAck: () => true } });
    expect(res.data.equals(SMALL)).toBe(true);
    // 6 blocks: each sent once although every ACK arrived twice.
    expect(res.dataPackets).toBe(6);
  });

  it('rolls a window back when a DATA block is lost, and finishes with the file intact', async () => {
    const res = await tftpGet({
      port: t.port,
      file: 'large.bin',
      options: { blksize: '1024', windowsize: '8', timeout: '1' },
      retransmitMs: 300,
      behaviour: { loseData: (block, seen) => block % 37 === 5 && seen === 1 },
    });
    expect(res.error).toBeNull();
    expect(res.data.equals(LARGE)).toBe(true);
  });

  it('survives lost and duplicated ACKs in windowed mode', async () => {
    const res = await tftpGet({
      port: t.port,
      file: 'large.bin',
      options: { blksize: '2048', windowsize: '4', timeout: '1' },
      retransmitMs: 5000,
      behaviour: { dropAck: (block, attempt) => block === 40 && attempt === 1, duplicateAck: (block) => block % 3 === 0 },
    });
    expect(res.error).toBeNull();
    expect(res.data.equals(LARGE)).toBe(true);
  });

  it('serves a retransmitted RRQ once (one transfer per client TID)', async () => {
    const before = tftpEvents('tftp.transfer.started').length;
    const res = await tftpGet({ port: t.port, file: 'small.bin', behaviour: { repeatRequest: 3 } });
    expect(res.data.equals(SMALL)).toBe(true);
    expect(res.strayErrors).toBe(0);
    await expect.poll(() => tftpEvents('tftp.transfer.started').length).toBe(before + 1);
  });

  it('treats a client that stops after the OACK as a size probe: no transfer event', async () => {
    const before = t.core.kernel.events.all().filter((e) => e.kind.startsWith('tftp.')).length;
    const res = await tftpGet({ port: t.port, file: 'small.bin', options: { tsize: '0' }, behaviour: { abortAfterOack: true } });
    expect(res.oack).toEqual({ tsize: String(SMALL.length) });
    await expect.poll(async () => /^bootwright_tftp_size_probes_total (\d+)$/m.exec(await t.core.kernel.metrics.prometheus())?.[1]).toBe('1');
    expect(t.core.kernel.events.all().filter((e) => e.kind.startsWith('tftp.')).length).toBe(before);
  });
});

describe('TFTP refusals', () => {
  const traversal = ['../secret.txt', '../../etc/passwd', '/../secret.txt', '//../etc/passwd', 'dir/../../secret.txt', '..\\secret.txt', 'dir\\nested.txt', 'C:/Windows/win.ini', 'escape.txt', 'updir/secret.txt'];
  it.each(traversal)('refuses %s with "access violation"', async (file) => {
    const res = await tftpGet({ port: t.port, file });
    expect(res.error).toEqual({ code: 2, message: 'access violation' });
    expect(res.data.length).toBe(0);
  });

  it('takes a leading slash as the root (GRUB asks for /grub/grub.cfg): inside it, never outside', async () => {
    expect((await tftpGet({ port: t.port, file: '/small.bin' })).data.equals(SMALL)).toBe(true);
    expect((await tftpGet({ port: t.port, file: '/etc/passwd' })).error).toEqual({ code: 1, message: 'file not found' });
  });

  it('follows a symlink that stays inside the root', async () => {
    const res = await tftpGet({ port: t.port, file: 'inside/link-in-root.bin' });
    expect(res.data.equals(SMALL)).toBe(true);
  });

  it('answers file not found, and a directory is not a file', async () => {
    expect((await tftpGet({ port: t.port, file: 'nope.bin' })).error).toEqual({ code: 1, message: 'file not found' });
    expect((await tftpGet({ port: t.port, file: 'dir' })).error).toMatchObject({ code: 1 });
  });

  it('refuses write requests (read-only) and unsupported modes', async () => {
    const { encode, decode } = await import('../../../src-main/tftp/server/tftp-codec.js');
    const dgram = await import('node:dgram');
    const socket = dgram.createSocket('udp4');
    const reply = (packet: Parameters<typeof encode>[0]) =>
      new Promise<ReturnType<typeof decode>>((resolve) => {
        socket.once('message', (message) => resolve(decode(message)));
        socket.send(encode(packet), t.port, '127.0.0.1');
      });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    expect(await reply({ op: 'wrq', filename: 'upload.bin', mode: 'octet', options: [] })).toMatchObject({ op: 'error', code: 2 });
    expect(await reply({ op: 'rrq', filename: 'small.bin', mode: 'mail', options: [] })).toMatchObject({ op: 'error', code: 4 });
    expect(await reply({ op: 'ack', block: 1 })).toMatchObject({ op: 'error', code: 5 });
    socket.close();
    await expect.poll(() => tftpEvents('tftp.transfer.failed').some((e) => e.detail?.file === 'upload.bin' && e.detail?.error_code === 2)).toBe(true);
  });

  it('records refused requests as failed transfers with the reason', async () => {
    await tftpGet({ port: t.port, file: '../secret.txt' });
    await expect.poll(() => tftpEvents('tftp.transfer.failed').some((e) => e.detail?.file === '../secret.txt')).toBe(true);
    const failed = tftpEvents('tftp.transfer.failed').find((e) => e.detail?.file === '../secret.txt')!;
    expect(failed).toMatchObject({ level: 'warn', ip: '127.0.0.1' });
    expect(failed.detail).toMatchObject({ error: 'access violation', error_code: 2, bytes: 0 });
  });
});

describe('TFTP virtual files', () => {
  it('serves a provider\'s file per client, before the disk, never cached across requests', async () => {
    let calls = 0;
    const remove = t.core.area('boot-files').files.addVirtualProvider({
      async resolve(file, client) {
        if (file !== 'test/virtual.ipxe' && file !== 'small.bin') return null;
        calls++;
        return { content: Buffer.from(`#!ipxe\necho ${client.protocol} ${client.ip} ${calls}\n`), contentType: 'text/plain' };
      },
    });
    try {
      const first = await tftpGet({ port: t.port, file: 'test/virtual.ipxe' });
      expect(first.data.toString()).toBe('#!ipxe\necho tftp 127.0.0.1 1\n');
      const second = await tftpGet({ port: t.port, file: 'test/virtual.ipxe', mode: 'netascii' });
      expect(second.data.toString()).toBe('#!ipxe\r\necho tftp 127.0.0.1 2\r\n');
      // The provider wins over the file on disk.
      expect((await tftpGet({ port: t.port, file: 'small.bin' })).data.toString()).toContain('echo tftp');
      // Confinement runs before providers.
      expect((await tftpGet({ port: t.port, file: '../test/virtual.ipxe' })).error).toMatchObject({ code: 2 });
    } finally {
      remove();
    }
    expect((await tftpGet({ port: t.port, file: 'small.bin' })).data.equals(SMALL)).toBe(true);
  });

  it('answers "server error" when a provider throws, and keeps serving', async () => {
    const remove = t.core.area('boot-files').files.addVirtualProvider({
      async resolve(file) {
        if (file === 'broken.ipxe') throw new Error('template exploded');
        return null;
      },
    });
    try {
      expect((await tftpGet({ port: t.port, file: 'broken.ipxe' })).error).toMatchObject({ code: 0 });
      expect((await tftpGet({ port: t.port, file: 'small.bin' })).data.equals(SMALL)).toBe(true);
    } finally {
      remove();
    }
  });
});

describe('TFTP under load', () => {
  it('completes 200 concurrent downloads with zero failures', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        tftpGet({
          port: t.port,
          file: 'large.bin',
          options: i % 2 === 0 ? { blksize: '1468' } : { blksize: '1468', windowsize: '8' },
          retransmitMs: 2000,
          limitMs: 60_000,
        }),
      ),
    );
    expect(results.filter((res) => res.error !== null || !res.data.equals(LARGE))).toEqual([]);
  }, 90_000);
});

describe('TFTP refusal flood', () => {
  it('records a flood of refused requests in the metric but only a bounded number as events', async () => {
    const { encode } = await import('../../../src-main/tftp/server/tftp-codec.js');
    const dgram = await import('node:dgram');
    const refusedTotal = async () => {
      const text = await t.core.kernel.metrics.prometheus();
      return [...text.matchAll(/^bootwright_tftp_requests_refused_total\{[^}]*\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    };
    const before = await refusedTotal();
    const eventsBefore = tftpEvents('tftp.transfer.failed').length;
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    let answers = 0;
    socket.on('message', () => answers++);
    for (let i = 0; i < 200; i++) socket.send(encode({ op: 'rrq', filename: `../flood-${i}`, mode: 'octet', options: [] }), t.port, '127.0.0.1');
    await expect.poll(() => answers, { timeout: 10_000 }).toBe(200);
    socket.close();
    await expect.poll(refusedTotal).toBe(before + 200);
    const recorded = tftpEvents('tftp.transfer.failed').length - eventsBefore;
    expect(recorded).toBeGreaterThan(0);
    expect(recorded).toBeLessThan(200);
  });
});
