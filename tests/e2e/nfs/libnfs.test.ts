/**
 * Bootwright's NFS server with libnfs's command-line clients (libnfs-utils:
 * nfs-ls, nfs-cat, nfs-cp — a user-space NFS v3 client, unlike the kernel in
 * tests/e2e/qemu/nfs-client.test.ts), against the headless server in a
 * namespace, configured through PUT /services/nfs:
 *
 * - `nfs-ls -R` lists exactly the exported folder (names, kinds, sizes),
 *   with the ports in the URL and through the portmapper (no ports);
 * - `nfs-cat` and `nfs-cp` read files byte for byte (one over 1 MiB, one two
 *   folders down: nfs-cat mounts the file's folder, a MNT inside the export);
 * - a client outside the export's subnets is refused (MNT3ERR_ACCES) and
 *   counted in GET /services/nfs/status;
 * - `..` in the URL path never reaches a file outside the exported folder.
 *
 * The same commands were checked against NFS-Ganesha (its VFS FSAL): the
 * listing format, "MNT3ERR_ACCES" for the refused client and for `..` mounts.
 *
 *   ns "lan": Bootwright, br0 10.98.0.1/24 ─┬─ ns "cli" eth0 10.98.0.10 (inside 10.98.0.0/25)
 *                                           └─ ns "out" eth0 10.98.0.200 (outside)
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NfsStatus } from '../../../src-main/nfs/nfs-contract.js';
import { NetLab, skipNetnsTest, type Netns } from '../../helpers/netns.js';
import { NetnsServer } from '../../helpers/netns-server.js';

const skip = skipNetnsTest('libnfs clients against Bootwright', ['nfs-ls', 'nfs-cat', 'nfs-cp', 'showmount', 'rpcinfo']);
const SERVER = '10.98.0.1';
const PORTS = 'nfsport=2049&mountport=20048';

let lab: NetLab | undefined;
let lan: Netns;
let cli: Netns;
let out: Netns;
let server: NetnsServer;
let work: string;
let folder: string;
const files = new Map<string, Buffer>();

function url(pathInExport: string, query = `version=3&${PORTS}`): string {
  return `nfs://${SERVER}/data${pathInExport}?${query}`;
}

/** "relative path" → "d" or the size, of everything under `root` (what nfs-ls -R should list). */
async function walk(root: string, prefix = ''): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      found.set(relative, 'd');
      for (const [name, kind] of await walk(root, relative)) found.set(name, kind);
    } else {
      found.set(relative, String((await stat(path.join(root, relative))).size));
    }
  }
  return found;
}

/** nfs-ls -R lines ("-rw-r--r--  1  0  0  1500000 sub/a.bin") → the same shape as walk(). */
function parseListing(output: string): Map<string, string> {
  const listed = new Map<string, string>();
  for (const line of output.split('\n')) {
    const match = /^([-dl])[rwxsStT-]{9}\s+\d+\s+\d+\s+\d+\s+(\d+)\s+(.+)$/.exec(line.trim());
    if (match) listed.set(match[3] ?? '', match[1] === 'd' ? 'd' : (match[2] ?? ''));
  }
  return listed;
}

describe.skipIf(skip)('libnfs clients (nfs-ls, nfs-cat, nfs-cp) against Bootwright', () => {
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'bootwright-libnfs-'));
    lab = await NetLab.create();
    lan = await lab.namespace('lan');
    await lab.bridge(lan, 'br0');
    await lan.addAddress('br0', `${SERVER}/24`);
    cli = await lab.namespace('cli');
    await lab.linkToBridge(cli, 'eth0', '10.98.0.10/24', lan, 'br0');
    out = await lab.namespace('out');
    await lab.linkToBridge(out, 'eth0', '10.98.0.200/24', lan, 'br0');
    const { address } = await lab.rootLink(lan, 'api0');
    const dataDir = path.join(work, 'data');
    server = new NetnsServer(lan, dataDir, address);
    await server.start();
    // The export is a folder in the boot root (an allowed root); a secret lies next to it, outside the export.
    const bootRoot = path.join(dataDir, 'boot');
    folder = path.join(bootRoot, 'libnfs-e2e');
    await mkdir(bootRoot, { recursive: true });
    await writeFile(path.join(bootRoot, 'outside-secret.txt'), 'outside the export\n');
    files.set('big.bin', randomBytes(2 * 1024 * 1024 + 999));
    files.set('readme.txt', Buffer.from('hello from an NFS export\n'));
    files.set('sub/deep/nested.txt', Buffer.from('two folders down\n'));
    files.set('sub/empty.bin', Buffer.alloc(0));
    for (const [name, data] of files) {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await writeFile(path.join(folder, name), data);
    }
    await mkdir(path.join(folder, 'empty-dir'));
    await server.must('PUT', '/services/nfs', { enabled: true, exports: [{ path: '/data', folder, clients: ['10.98.0.0/25'] }] });
    await server.waitFor(
      'the nfs service running',
      async () => {
        const nfs = (await server.must<{ name: string; state: string; last_error: string | null }[]>('GET', '/services')).find((service) => service.name === 'nfs');
        if (nfs?.state === 'failed') throw new Error(`nfs failed: ${nfs.last_error ?? 'no reason'}`);
        return nfs?.state === 'running' ? true : undefined;
      },
      30_000,
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('nfs-ls -R lists exactly the exported folder, with the ports given and through the portmapper', async () => {
    const expected = await walk(folder);
    for (const query of [`version=3&${PORTS}`, 'version=3']) {
      const result = await cli.run('nfs-ls', ['-R', url('', query)]);
      expect(result.code, `${query}: ${result.stderr}`).toBe(0);
      expect(parseListing(result.stdout), query).toEqual(expected);
    }
  });

  it('showmount (MOUNT v1 EXPORT, found through our portmapper) and rpcinfo list the export and the programs', async () => {
    const shown = await cli.run('showmount', ['-e', SERVER]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^\/data\s+10\.98\.0\.0\/25$/m);
    const programs = await cli.run('rpcinfo', ['-p', SERVER]);
    expect(programs.code, programs.stderr).toBe(0);
    for (const line of [/100003\s+3\s+tcp\s+2049\s+nfs/, /100005\s+3\s+tcp\s+20048\s+mountd/, /100005\s+1\s+udp\s+20048\s+mountd/]) expect(programs.stdout).toMatch(line);
  });

  it('nfs-cat and nfs-cp read the files byte for byte', async () => {
    for (const name of ['readme.txt', 'big.bin']) {
      const copy = path.join(work, `copy-${path.basename(name)}`);
      const copied = await cli.run('nfs-cp', [url(`/${name}`), copy], { timeoutMs: 60_000 });
      expect(copied.code, copied.stderr).toBe(0);
      expect((await readFile(copy)).equals(files.get(name) ?? Buffer.alloc(1)), name).toBe(true);
    }
    const cat = await cli.run('nfs-cat', [url('/readme.txt')]);
    expect(cat.code, cat.stderr).toBe(0);
    expect(cat.stdout).toBe(files.get('readme.txt')?.toString());
  }, 90_000);

  it('nfs-cat reads a file two folders down (libnfs mounts the file\'s folder: a MNT inside the export)', async () => {
    const cat = await cli.run('nfs-cat', [url('/sub/deep/nested.txt')]);
    expect(cat.code, cat.stderr).toBe(0);
    expect(cat.stdout).toBe(files.get('sub/deep/nested.txt')?.toString());
    const empty = await cli.run('nfs-cat', [url('/sub/empty.bin')]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('');
  });

  it('a missing file is an error, not empty output', async () => {
    const cat = await cli.run('nfs-cat', [url('/no-such-file.txt')]);
    expect(cat.code).not.toBe(0);
    expect(cat.stderr).toMatch(/NOENT/);
  });

  it('refuses a client outside the export\'s subnets and counts it', async () => {
    const before = (await server.must<NfsStatus>('GET', '/services/nfs/status')).refused;
    const listed = await out.run('nfs-ls', [url('')]);
    expect(listed.code).not.toBe(0);
    expect(listed.stderr).toMatch(/MNT3ERR_ACCES|Permission denied/);
    expect(listed.stdout).not.toContain('readme.txt');
    const copied = await out.run('nfs-cp', [url('/readme.txt'), path.join(work, 'refused-copy')]);
    expect(copied.code).not.toBe(0);
    const status = await server.must<NfsStatus>('GET', '/services/nfs/status');
    expect(status.refused).toBeGreaterThanOrEqual(before + 2);
    const outsider = status.clients.find((client) => client.address === '10.98.0.200');
    expect(outsider?.refused ?? 0, JSON.stringify(status.clients)).toBeGreaterThanOrEqual(2);
    expect(outsider?.bytes_read ?? 0).toBe(0);
  });

  it('.. in the URL path does not leave the export', async () => {
    const secret = 'outside the export';
    const attempts = [
      ['nfs-cat', url('/../outside-secret.txt')],
      ['nfs-cat', url('/sub/../../outside-secret.txt')],
      ['nfs-cat', url('/sub/deep/../../../outside-secret.txt')],
      ['nfs-ls', url('/..')],
      ['nfs-ls', url('/sub/../..')],
    ] as const;
    for (const [tool, target] of attempts) {
      const result = await cli.run(tool, [target]);
      // Refused (MNT of a path that is no export) or confined to the export: never the file next to it.
      expect(result.stdout, `${tool} ${target}`).not.toContain(secret);
      expect(result.stdout, `${tool} ${target}`).not.toContain('outside-secret.txt');
      expect(result.stdout, `${tool} ${target}`).not.toContain('libnfs-e2e');
      if (tool === 'nfs-cat') expect(result.code, `${tool} ${target}`).not.toBe(0);
    }
  });
});
