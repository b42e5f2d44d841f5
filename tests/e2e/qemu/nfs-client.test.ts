/**
 * Bootwright's NFS server with a real Linux client (issue 15): this machine's
 * kernel booted in QEMU (tests/helpers/nfs-client-vm.ts) mounts exports of a
 * headless Bootwright configured through the API (PUT /services/nfs):
 *
 * - a folder under the data dir's boot root, mounted with vers=3 over TCP,
 *   with MOUNT over UDP (and NFS over UDP where the kernel can: Debian's has
 *   no NFS over UDP), and through the portmapper (no port options): the
 *   listing names every file, the sha256 of a file over 1 MiB and of one two
 *   folders down match the host's; the status counts the client's reads;
 * - Bootwright killed and started again on the same data dir while the VM
 *   has the export mounted (hard): the VM's read loop resumes after the
 *   restart with the same bytes (its handles survive: the handle key is stored);
 * - an imported and mounted ISO, exported automatically at /iso/<slug>.
 *
 * The same harness against NFS-Ganesha: nfs-client-ganesha.test.ts (if that
 * one passes and this one fails, the fault is ours).
 *
 *   root ns (this test) ──veth──► ns "lan": Bootwright (br0 10.95.0.1/24, API on the veth)
 *                                   └─ br0 ── tap<vm> (client VMs 10.95.0.5x)
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NfsSettingsView, NfsStatus } from '../../../src-main/nfs/nfs-contract.js';
import { buildIso, isoToolPresent } from '../../helpers/iso-fixtures.js';
import { NetLab, type Netns } from '../../helpers/netns.js';
import { NetnsServer } from '../../helpers/netns-server.js';
import { NfsClientVm, findVmKernel, lastRead, nfsMountCommand, parseSha256, readLoopScript, runNfsClientVm, skipNfsVmTest } from '../../helpers/nfs-client-vm.js';

const skip = skipNfsVmTest('NFS client VM against Bootwright', ['qemu-system-x86_64']);
const VM_TIMEOUT_MS = 240_000;
const SERVER = '10.95.0.1';
const SUBNET = '10.95.0.0/24';

let lab: NetLab | undefined;
let lan: Netns;
let server: NetnsServer;
let work: string;
let folder: string;
const files = new Map<string, Buffer>();

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

async function waitForNfsRunning(): Promise<void> {
  await server.waitFor(
    'the nfs service running',
    async () => {
      const services = await server.must<{ name: string; state: string; last_error: string | null }[]>('GET', '/services');
      const nfs = services.find((service) => service.name === 'nfs');
      if (nfs?.state === 'failed') throw new Error(`nfs failed: ${nfs.last_error ?? 'no reason'}`);
      return nfs?.state === 'running' ? true : undefined;
    },
    30_000,
  );
}

describe.skipIf(skip)('a Linux NFS v3 client VM against Bootwright', () => {
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'bootwright-nfsvm-'));
    lab = await NetLab.create();
    lan = await lab.namespace('lan');
    await lab.bridge(lan, 'br0');
    await lan.addAddress('br0', `${SERVER}/24`);
    const { address } = await lab.rootLink(lan, 'api0');
    const dataDir = path.join(work, 'data');
    server = new NetnsServer(lan, dataDir, address);
    await server.start();
    // The boot root is an allowed root for exports.
    folder = path.join(dataDir, 'boot', 'nfs-e2e');
    files.set('big.bin', randomBytes(3 * 1024 * 1024 + 4321));
    files.set('readme.txt', Buffer.from('served by Bootwright over NFS v3\n'));
    files.set('sub/deep/nested.txt', Buffer.from('two folders down\n'));
    for (const [name, data] of files) {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await writeFile(path.join(folder, name), data);
    }
    await server.must('PUT', '/services/nfs', { enabled: true, exports: [{ path: '/data', folder, clients: [SUBNET] }] });
    await waitForNfsRunning();
    const settings = await server.must<NfsSettingsView>('GET', '/services/nfs');
    expect(settings.exports.map((entry) => ({ path: entry.path, folder: entry.folder, problem: entry.problem }))).toEqual([{ path: '/data', folder, problem: null }]);
  }, 180_000);

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await lab?.destroy();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('mounts the folder export over TCP, with MOUNT over UDP and through the portmapper, and reads it byte for byte', async () => {
    const nfsOverUdp = findVmKernel()?.nfsOverUdp ?? false;
    const mounts = {
      tcp: nfsMountCommand({ server: SERVER, exportPath: '/data', proto: 'tcp' }),
      udp: nfsMountCommand({ server: SERVER, exportPath: '/data', proto: nfsOverUdp ? 'udp' : 'tcp', mountProto: 'udp' }),
      // No port options: the kernel asks the portmapper on port 111 for MOUNT's and NFS's ports.
      pmap: nfsMountCommand({ server: SERVER, exportPath: '/data', proto: 'tcp', port: null, mountPort: null }),
    };
    const names = [...files.keys()];
    const script = Object.entries(mounts)
      .flatMap(([label, mount]) => [
        `step mount-${label} ${mount}`,
        `step list-${label} ls -lR /mnt`,
        `step sums-${label} sha256sum ${names.map((name) => `/mnt/${name}`).join(' ')}`,
        `step umount-${label} umount /mnt`,
      ])
      .join('\n');
    const result = await runNfsClientVm({ ns: lan, bridge: 'br0', name: 'A', address: '10.95.0.50/24', script, workDir: work, timeoutMs: VM_TIMEOUT_MS });
    expect(result.finished, result.console.slice(-4000)).toBe(true);
    for (const label of Object.keys(mounts)) {
      expect(result.step(`mount-${label}`).rc, `${label}: ${result.step(`mount-${label}`).output}`).toBe(0);
      const listing = result.step(`list-${label}`).output;
      for (const name of names) expect(listing, label).toContain(path.basename(name));
      expect(listing).toMatch(new RegExp(`\\s${files.get('big.bin')?.length ?? 0}\\s.*big\\.bin`));
      const sums = parseSha256(result.step(`sums-${label}`).output);
      for (const [name, data] of files) expect(sums.get(`/mnt/${name}`), `${label} ${name}`).toBe(sha256(data));
      expect(result.step(`umount-${label}`).rc).toBe(0);
    }
    const status = await server.must<NfsStatus>('GET', '/services/nfs/status');
    const client = status.clients.find((entry) => entry.address === '10.95.0.50');
    expect(client, JSON.stringify(status.clients)).toBeDefined();
    // Three mounts read big.bin once each (the page cache goes with the mount).
    expect(client?.bytes_read ?? 0).toBeGreaterThanOrEqual((files.get('big.bin')?.length ?? 0) * 3);
    expect(client?.requests ?? 0).toBeGreaterThan(0);
    expect(client?.refused).toBe(0);
  }, VM_TIMEOUT_MS + 30_000);

  it('keeps a hard mount working across a restart of Bootwright: reads resume with the same bytes', async () => {
    const big = files.get('big.bin') ?? Buffer.alloc(0);
    const mount = nfsMountCommand({ server: SERVER, exportPath: '/data', proto: 'tcp', options: ['hard', 'noac', 'lookupcache=none'] });
    const script = readLoopScript({ mount, file: 'big.bin' });
    const vm = await NfsClientVm.boot({ ns: lan, bridge: 'br0', name: 'R', address: '10.95.0.51/24', script, workDir: work, timeoutMs: VM_TIMEOUT_MS });
    try {
      await vm.waitFor(/^@@BW:mark:read-2:/m, 120_000);
      await server.kill();
      const lastBefore = lastRead(vm.console);
      await server.start();
      await waitForNfsRunning();
      // Two more full reads after the restart (the first may have been in flight across it).
      await vm.waitFor(new RegExp(`^@@BW:mark:read-${lastBefore + 2}:`, 'm'), 150_000);
      await writeFile(path.join(folder, 'stop'), '');
      const result = await vm.result();
      expect(result.finished, result.console.slice(-4000)).toBe(true);
      expect(result.step('mount').rc).toBe(0);
      const reads = [...result.marks].filter(([name]) => name.startsWith('read-'));
      expect(reads.length).toBeGreaterThan(lastBefore + 1);
      // A hard mount never returns an error: every read, before, across and after the restart, has the file's bytes.
      for (const [name, sum] of reads) expect(sum, name).toBe(sha256(big));
      expect(result.step('umount').rc).toBe(0);
    } finally {
      vm.kill();
      await rm(path.join(folder, 'stop'), { force: true });
    }
  }, VM_TIMEOUT_MS + 200_000);

  it.skipIf(!isoToolPresent('xorriso', 'NFS ISO export e2e'))('exports a mounted ISO at /iso/<slug> and the VM reads a file from it', async () => {
    const content = randomBytes(1024 * 1024 + 77);
    const iso = await buildIso(work, 'nfs-e2e.iso', {
      entries: [
        { kind: 'dir', path: 'live' },
        { kind: 'file', path: 'live/filesystem.bin', content },
        { kind: 'file', path: 'README.TXT', content: 'iso over nfs\n' },
      ],
    });
    const imported = path.join(server.dataDir, 'images', 'nfs-e2e.iso');
    await mkdir(path.dirname(imported), { recursive: true });
    await copyFile(iso, imported);
    const created = await server.must<{ id: number }>('POST', '/os-images/import', { path: imported, name: 'NFS e2e ISO' });
    const image = await server.waitFor(
      'image ready',
      async () => {
        const current = await server.must<{ id: number; slug: string; state: string; error: string | null }>('GET', `/os-images/${created.id}`);
        if (current.state === 'error') throw new Error(`image failed: ${current.error ?? 'no reason'}`);
        return current.state === 'ready' ? current : undefined;
      },
      60_000,
    );
    await server.must('POST', `/os-images/${image.id}/mount`, {});
    await server.must('PUT', '/services/nfs', { export_mounted_images: true, image_clients: [SUBNET] });
    const exportPath = `/iso/${image.slug}`;
    await server.waitFor(
      `the image exported at ${exportPath}`,
      async () => ((await server.must<NfsStatus>('GET', '/services/nfs/status')).exports.some((entry) => entry.path === exportPath && entry.automatic && entry.problem === null) ? true : undefined),
      30_000,
    );
    const script = [
      `step mount ${nfsMountCommand({ server: SERVER, exportPath, proto: 'tcp' })}`,
      'step list ls -lR /mnt',
      'step sums sha256sum /mnt/live/filesystem.bin /mnt/README.TXT',
      'step umount umount /mnt',
    ].join('\n');
    const result = await runNfsClientVm({ ns: lan, bridge: 'br0', name: 'I', address: '10.95.0.52/24', script, workDir: work, timeoutMs: VM_TIMEOUT_MS });
    expect(result.step('mount').rc, result.step('mount').output).toBe(0);
    expect(result.step('list').output).toContain('filesystem.bin');
    const sums = parseSha256(result.step('sums').output);
    expect(sums.get('/mnt/live/filesystem.bin')).toBe(sha256(content));
    expect(sums.get('/mnt/README.TXT')).toBe(sha256(Buffer.from('iso over nfs\n')));
    expect(result.step('umount').rc).toBe(0);
  }, VM_TIMEOUT_MS + 120_000);
});
