import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolPresent } from '../../helpers/tools.js';
import { patternBytes, startTftpCore, type TftpCore } from './tftp-harness.js';

const run = promisify(execFile);

const hasAtftp = toolPresent('atftp', 'the atftp tests');
const hasTftpHpa = toolPresent('tftp', 'the tftp-hpa tests');

const BIG = patternBytes(1_000_003, 21);
const TEXT = 'first line\nsecond line\n\nlast\n';

let t: TftpCore;
let out: string;
beforeAll(async () => {
  t = await startTftpCore({ files: { 'big.bin': BIG, 'notes.txt': TEXT, 'sub/dir/file.bin': BIG.subarray(0, 5000) }, settings: { max_blksize: 65464 } });
  out = await mkdtemp(path.join(os.tmpdir(), 'bw-tftp-out-'));
  // Links inside the root that lead out of it: to a file next to the root, and to the system's /etc.
  await writeFile(path.join(out, 'outside-secret.txt'), 'not for the LAN');
  await symlink(path.join(out, 'outside-secret.txt'), path.join(t.root, 'escape.txt'));
  await symlink('/etc', path.join(t.root, 'etc'));
});
afterAll(async () => {
  await t?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

async function atftp(remote: string, options: string[]): Promise<{ ok: boolean; data: Buffer | null; output: string }> {
  const local = path.join(out, `atftp-${Math.random().toString(36).slice(2)}`);
  const args = [...options.flatMap((option) => ['--option', option]), '--tftp-timeout', '2', '-g', '-r', remote, '-l', local, '127.0.0.1', String(t.port)];
  try {
    const { stdout, stderr } = await run('atftp', args, { timeout: 30_000 });
    return { ok: true, data: await readFile(local), output: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, data: null, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function tftpHpa(remote: string, mode: 'octet' | 'netascii'): Promise<{ data: Buffer | null; output: string }> {
  const local = path.join(out, `hpa-${Math.random().toString(36).slice(2)}`);
  const { stdout, stderr } = await run('tftp', ['-m', mode, '127.0.0.1', String(t.port), '-c', 'get', remote, local], { timeout: 30_000 });
  const data = await readFile(local).catch(() => null);
  return { data, output: stdout + stderr };
}

describe.runIf(hasAtftp)('atftp against Bootwright', () => {
  it.each([
    ['no options', []],
    ['blksize 1468', ['blksize 1468']],
    ['blksize 1468 and tsize', ['blksize 1468', 'tsize enable']],
    ['blksize 1468, windowsize 16', ['blksize 1468', 'windowsize 16']],
    ['blksize 1468, windowsize 64, tsize, timeout 1', ['blksize 1468', 'windowsize 64', 'tsize enable', 'timeout 1']],
    ['blksize 65464, windowsize 8 (granted 1 by the window budget)', ['blksize 65464', 'windowsize 8']],
  ])('downloads a 1 MB file intact with %s', async (_name, options) => {
    const res = await atftp('big.bin', options);
    expect(res.output).not.toMatch(/error|aborting/i);
    expect(res.ok).toBe(true);
    expect(res.data?.equals(BIG)).toBe(true);
  });

  it('gets "access violation" for path traversal', async () => {
    const res = await atftp('../../../etc/passwd', []);
    expect(res.ok).toBe(false);
    expect(res.output).toContain('access violation');
  });

  it.each(['escape.txt', 'etc/passwd', 'etc/shadow'])('gets "access violation" for %s, a symlink out of the root', async (remote) => {
    const res = await atftp(remote, []);
    expect(res.ok).toBe(false);
    expect(res.output).toContain('access violation');
    expect(res.data).toBeNull();
  });
});

describe.runIf(hasTftpHpa)('tftp-hpa against Bootwright', () => {
  it('downloads in octet mode (RFC 1350, no options)', async () => {
    const res = await tftpHpa('big.bin', 'octet');
    expect(res.data?.equals(BIG)).toBe(true);
  });

  it('downloads a nested path', async () => {
    const res = await tftpHpa('sub/dir/file.bin', 'octet');
    expect(res.data?.equals(BIG.subarray(0, 5000))).toBe(true);
  });

  it('downloads in netascii mode, converting line ends back', async () => {
    const res = await tftpHpa('notes.txt', 'netascii');
    expect(res.data?.toString()).toBe(TEXT);
  });

  it('gets "access violation" for path traversal and "file not found" for a missing file', async () => {
    expect((await tftpHpa('../etc/passwd', 'octet')).output).toContain('Error code 2: access violation');
    expect((await tftpHpa('missing.bin', 'octet')).output).toContain('Error code 1: file not found');
  });

  it.each(['escape.txt', 'etc/passwd', 'etc/shadow', 'etc/../../etc/passwd'])('gets "access violation" for %s (out of the root through a symlink or ..)', async (remote) => {
    const res = await tftpHpa(remote, 'octet');
    expect(res.output).toContain('Error code 2: access violation');
    expect(res.data === null || res.data.length === 0).toBe(true);
  });
});
