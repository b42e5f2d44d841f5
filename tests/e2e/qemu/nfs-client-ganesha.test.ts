/**
 * The NFS client VM harness (tests/helpers/nfs-client-vm.ts) proven against a
 * reference server, NFS-Ganesha's VFS FSAL: a real Linux kernel mounts an
 * export with vers=3 over TCP and then over UDP, lists it and reads a file
 * over 1 MiB and a file two folders down; the sums match the host's files.
 * Then a hard mount keeps reading (page cache dropped each round) while
 * Ganesha is killed and started again. If this passes and nfs-client.test.ts
 * fails, the fault is in our server.
 *
 *   ns "lan": br0 10.96.0.1/24, ganesha.nfsd + rpcbind ── br0 ── tapG (client VM 10.96.0.50)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GANESHA_MOUNT_PORT, GANESHA_NFS_PORT, startGanesha, type Ganesha } from '../../helpers/ganesha-reference.js';
import { NetLab, type Netns } from '../../helpers/netns.js';
import { NfsClientVm, findVmKernel, lastRead, nfsMountCommand, parseSha256, readLoopScript, runNfsClientVm, skipNfsVmTest } from '../../helpers/nfs-client-vm.js';

const skip = skipNfsVmTest('NFS client VM against Ganesha', ['qemu-system-x86_64', 'ganesha.nfsd', 'rpcbind', 'unshare']);
const VM_TIMEOUT_MS = 240_000;

let lab: NetLab | undefined;
let lan: Netns;
let work: string;
let folder: string;
let ganesha: Ganesha;
const files = new Map<string, Buffer>();

describe.skipIf(skip)('a Linux NFS v3 client VM against NFS-Ganesha', () => {
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'bootwright-nfsvm-'));
    folder = path.join(work, 'export');
    files.set('big.bin', randomBytes(1_500_000 + 123));
    files.set('sub/deep/small.txt', Buffer.from('nested file\n'));
    for (const [name, data] of files) {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await writeFile(path.join(folder, name), data);
    }
    lab = await NetLab.create();
    lan = await lab.namespace('lan');
    await lab.bridge(lan, 'br0');
    await lan.addAddress('br0', '10.96.0.1/24');
    ganesha = await startGanesha(lan, { folder, exportPath: '/export', clients: '10.96.0.0/24', workDir: work });
  }, 60_000);

  afterAll(async () => {
    await lab?.destroy();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('mounts over TCP and UDP, lists the export and reads the files byte for byte', async () => {
    // "udp": MOUNT over UDP, and NFS too where the kernel can (Debian's cannot: nfsOverUdp).
    const nfsOverUdp = findVmKernel()?.nfsOverUdp ?? false;
    const mount = (proto: 'tcp' | 'udp') =>
      nfsMountCommand({ server: '10.96.0.1', exportPath: '/export', proto: nfsOverUdp ? proto : 'tcp', mountProto: proto, port: GANESHA_NFS_PORT, mountPort: GANESHA_MOUNT_PORT });
    const mounts = {
      tcp: mount('tcp'),
      udp: mount('udp'),
      // No port options: the kernel asks rpcbind on port 111.
      pmap: nfsMountCommand({ server: '10.96.0.1', exportPath: '/export', proto: 'tcp', port: null, mountPort: null }),
    };
    const script = Object.entries(mounts)
      .flatMap(([proto, command]) => [
        `step mount-${proto} ${command}`,
        `step list-${proto} ls -lR /mnt`,
        `step sums-${proto} sha256sum ${[...files.keys()].map((name) => `/mnt/${name}`).join(' ')}`,
        `step umount-${proto} umount /mnt`,
      ])
      .join('\n');
    const result = await runNfsClientVm({ ns: lan, bridge: 'br0', name: 'G', address: '10.96.0.50/24', script, workDir: work, timeoutMs: VM_TIMEOUT_MS });
    expect(result.finished, result.console.slice(-4000)).toBe(true);
    for (const proto of Object.keys(mounts)) {
      expect(result.step(`mount-${proto}`).rc, result.step(`mount-${proto}`).output).toBe(0);
      expect(result.step(`list-${proto}`).output).toMatch(/big\.bin/);
      expect(result.step(`list-${proto}`).output).toMatch(/small\.txt/);
      const sums = parseSha256(result.step(`sums-${proto}`).output);
      for (const [name, data] of files) expect(sums.get(`/mnt/${name}`), `${proto} ${name}`).toBe(createHash('sha256').update(data).digest('hex'));
      expect(result.step(`umount-${proto}`).rc).toBe(0);
    }
  }, VM_TIMEOUT_MS + 30_000);

  it('keeps a hard mount reading across a restart of the server', async () => {
    const big = files.get('big.bin') ?? Buffer.alloc(0);
    const mount = nfsMountCommand({ server: '10.96.0.1', exportPath: '/export', proto: 'tcp', port: GANESHA_NFS_PORT, mountPort: GANESHA_MOUNT_PORT, options: ['hard', 'noac', 'lookupcache=none'] });
    const vm = await NfsClientVm.boot({ ns: lan, bridge: 'br0', name: 'GR', address: '10.96.0.51/24', script: readLoopScript({ mount, file: 'big.bin' }), workDir: work, timeoutMs: VM_TIMEOUT_MS });
    try {
      await vm.waitFor(/^@@BW:mark:read-2:/m, 120_000);
      await ganesha.kill();
      const lastBefore = lastRead(vm.console);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await ganesha.start();
      await vm.waitFor(new RegExp(`^@@BW:mark:read-${lastBefore + 2}:`, 'm'), 150_000);
      await writeFile(path.join(folder, 'stop'), '');
      const result = await vm.result();
      expect(result.finished, result.console.slice(-4000)).toBe(true);
      const reads = [...result.marks].filter(([name]) => name.startsWith('read-'));
      expect(reads.length).toBeGreaterThan(lastBefore + 1);
      for (const [name, sum] of reads) expect(sum, name).toBe(createHash('sha256').update(big).digest('hex'));
      expect(result.step('umount').rc).toBe(0);
    } finally {
      vm.kill();
    }
  }, VM_TIMEOUT_MS + 60_000);
});
