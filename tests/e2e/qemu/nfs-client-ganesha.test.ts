/**
 * The NFS client VM harness (tests/helpers/nfs-client-vm.ts) proven against a
 * reference server, NFS-Ganesha's VFS FSAL: a real Linux kernel mounts an
 * export with vers=3 over TCP and then over UDP, lists it and reads a file
 * over 1 MiB and a file two folders down; the sums match the host's files.
 * If this passes and nfs-client.test.ts fails, the fault is in our server.
 *
 *   ns "lan": br0 10.96.0.1/24, ganesha.nfsd + rpcbind ── br0 ── tapG (client VM 10.96.0.50)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GANESHA_MOUNT_PORT, GANESHA_NFS_PORT, startGanesha } from '../../helpers/ganesha-reference.js';
import { NetLab, type Netns } from '../../helpers/netns.js';
import { findVmKernel, nfsMountCommand, parseSha256, runNfsClientVm, skipNfsVmTest } from '../../helpers/nfs-client-vm.js';

const skip = skipNfsVmTest('NFS client VM against Ganesha', ['qemu-system-x86_64', 'ganesha.nfsd', 'rpcbind', 'unshare']);
const VM_TIMEOUT_MS = 240_000;

let lab: NetLab | undefined;
let lan: Netns;
let work: string;
const files = new Map<string, Buffer>();

describe.skipIf(skip)('a Linux NFS v3 client VM against NFS-Ganesha', () => {
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'bootwright-nfsvm-'));
    const folder = path.join(work, 'export');
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
    await startGanesha(lan, { folder, exportPath: '/export', clients: '10.96.0.0/24', workDir: work });
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
    const script = (['tcp', 'udp'] as const)
      .flatMap((proto) => [
        `step mount-${proto} ${mount(proto)}`,
        `step list-${proto} ls -lR /mnt`,
        `step sums-${proto} sha256sum ${[...files.keys()].map((name) => `/mnt/${name}`).join(' ')}`,
        `step umount-${proto} umount /mnt`,
      ])
      .join('\n');
    const result = await runNfsClientVm({ ns: lan, bridge: 'br0', name: 'G', address: '10.96.0.50/24', script, workDir: work, timeoutMs: VM_TIMEOUT_MS });
    expect(result.finished, result.console.slice(-4000)).toBe(true);
    for (const proto of ['tcp', 'udp']) {
      expect(result.step(`mount-${proto}`).rc, result.step(`mount-${proto}`).output).toBe(0);
      expect(result.step(`list-${proto}`).output).toMatch(/big\.bin/);
      expect(result.step(`list-${proto}`).output).toMatch(/small\.txt/);
      const sums = parseSha256(result.step(`sums-${proto}`).output);
      for (const [name, data] of files) expect(sums.get(`/mnt/${name}`), `${proto} ${name}`).toBe(createHash('sha256').update(data).digest('hex'));
      expect(result.step(`umount-${proto}`).rc).toBe(0);
    }
  }, VM_TIMEOUT_MS + 30_000);
});
