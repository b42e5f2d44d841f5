import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cpioNewcGzip, moduleLoadOrder, moduleName, type CpioEntry } from './initramfs.js';
import { findTool, skipNetnsTest, type Netns } from './netns.js';

/*
 * A real Linux NFS client for the end-to-end tests: this machine's own
 * kernel (/boot/vmlinuz-*) booted in QEMU (TCG) with a tiny initramfs —
 * busybox-static and the kernel's modules for an NFS v3 mount (sunrpc,
 * grace, lockd, nfs, nfsv3 and what modules.dep says they need) plus the
 * e1000 NIC driver. Its /init loads them, gives eth0 a static address on a
 * tap in the test's bridge and runs the test's script, whose `step NAME cmd…`
 * lines print unambiguous markers on the serial console, then powers off.
 *
 *   const vm = await NfsClientVm.boot({ ns: lan, bridge: 'br0', name: 'n1', address: '10.95.0.50/24', workDir,
 *     script: [`step mount ${nfsMountCommand({ server: '10.95.0.1', exportPath: '/data', proto: 'tcp' })}`, 'step sum sha256sum /mnt/a.bin'].join('\n') });
 *   const result = await vm.result();
 *   result.step('mount').rc === 0; parseSha256(result.step('sum').output).get('/mnt/a.bin')
 *
 * busybox's mount has no NFS code of its own (Debian's static busybox): it
 * hands the options to the kernel as text, so the kernel itself speaks MOUNT
 * and NFS, and needs `addr=` (the server's address), `nolock` (no statd in
 * here) and, to skip the portmapper, `port=` and `mountport=`.
 */

/** The NIC the VM gets: e1000 needs one module (virtio_net needs five) and is a module in Debian's kernel. */
const NIC_DEVICE = 'e1000';
const MODULES = ['e1000', 'nfsv3'];
const BUSYBOX = '/bin/busybox';
const MARK = '@@BW';

export interface NfsVmKernel {
  version: string;
  vmlinuz: string;
  modulesDir: string;
  /**
   * Whether its NFS client can use UDP: Debian's kernels are built with
   * CONFIG_NFS_DISABLE_UDP_SUPPORT=y ("NFS: Unsupported transport protocol
   * udp"), so there only MOUNT can go over UDP (mountproto=udp).
   */
  nfsOverUdp: boolean;
}

/** The newest /boot/vmlinuz-<version> whose /lib/modules/<version> exists, or null. */
export function findVmKernel(): NfsVmKernel | null {
  let names: string[];
  try {
    names = readdirSync('/boot').filter((name) => name.startsWith('vmlinuz-'));
  } catch {
    return null;
  }
  for (const name of names.sort().reverse()) {
    const version = name.slice('vmlinuz-'.length);
    const modulesDir = path.join('/lib/modules', version);
    if (!existsSync(path.join(modulesDir, 'modules.dep'))) continue;
    let config = '';
    try {
      config = readFileSync(path.join('/boot', `config-${version}`), 'utf8');
    } catch {
      // No config: assume the kernel's default (UDP supported).
    }
    return { version, vmlinuz: path.join('/boot', name), modulesDir, nfsOverUdp: !/^CONFIG_NFS_DISABLE_UDP_SUPPORT=y$/m.test(config) };
  }
  return null;
}

/** What is missing on this machine for an NFS client VM (empty when it can run). */
export function missingNfsVmParts(): string[] {
  const missing: string[] = [];
  if (!existsSync(BUSYBOX)) missing.push(`${BUSYBOX} (busybox-static)`);
  if (!findVmKernel()) missing.push('/boot/vmlinuz-* with its /lib/modules (linux-image-amd64)');
  if (!findTool('qemu-system-x86_64')) missing.push('qemu-system-x86_64 (qemu-system-x86)');
  return missing;
}

/**
 * Whether a test with an NFS client VM skips: without root/namespaces or
 * `tools` (skipNetnsTest), or without busybox/kernel/QEMU — then it skips
 * locally with the reason and fails in CI, which installs them.
 */
export function skipNfsVmTest(label: string, tools: readonly string[] = []): boolean {
  if (skipNetnsTest(label, tools)) return true;
  const missing = missingNfsVmParts();
  if (missing.length === 0) return false;
  if (process.env.CI) throw new Error(`${label} needs ${missing.join(', ')} (.ci/run installs busybox-static, linux-image-amd64, qemu-system-x86)`);
  console.warn(`${label} skipped: missing ${missing.join(', ')}; in CI it runs`);
  return true;
}

let baseArchive: Promise<{ kernel: NfsVmKernel; archive: Buffer; modules: string[] }> | null = null;

/** busybox + modules + /init, built once per test process (the per-boot script is a second archive appended to it). */
function base(): Promise<{ kernel: NfsVmKernel; archive: Buffer; modules: string[] }> {
  baseArchive ??= (async () => {
    const kernel = findVmKernel();
    if (!kernel) throw new Error('no /boot/vmlinuz-* with modules in /lib/modules');
    const files = await moduleLoadOrder(kernel.modulesDir, MODULES);
    const entries: CpioEntry[] = [
      ...['bin', 'dev', 'proc', 'sys', 'mnt', 'tmp', 'lib', 'lib/modules'].map((dir): CpioEntry => ({ kind: 'dir', path: dir })),
      // The kernel opens /dev/console for init before anything is mounted.
      { kind: 'chardev', path: 'dev/console', major: 5, minor: 1 },
      { kind: 'file', path: 'bin/busybox', data: await readFile(BUSYBOX), mode: 0o755 },
      { kind: 'symlink', path: 'bin/sh', target: 'busybox' },
    ];
    for (const file of files) entries.push({ kind: 'file', path: `lib/modules/${path.basename(file)}`, data: await readFile(path.join(kernel.modulesDir, file)) });
    const modules = files.map((file) => path.basename(file));
    entries.push({ kind: 'file', path: 'init', data: Buffer.from(initScript(modules)), mode: 0o755 });
    return { kernel, archive: cpioNewcGzip(entries), modules: files.map(moduleName) };
  })();
  return baseArchive;
}

function initScript(modules: readonly string[]): string {
  return `#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
echo "${MARK}:boot"
for module in ${modules.join(' ')}; do
  insmod /lib/modules/$module || echo "${MARK}:insmod-failed:$module"
done
# step NAME cmd…: runs cmd with its output between markers and its exit status at the end.
step() {
  name=$1; shift
  echo "${MARK}:begin:$name"
  "$@" 2>&1
  rc=$?
  echo "${MARK}:end:$name:$rc"
  return $rc
}
# mark NAME VALUE: a one-line result.
mark() { echo "${MARK}:mark:$1:$2"; }
. /etc/vm.conf
ip link set lo up
i=0
while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
ip addr add "$VM_ADDRESS" dev eth0
ip link set eth0 up
# The e1000 link comes up a few seconds later under TCG; a mount before that fails (EINVAL from the kernel's MOUNT call).
i=0
while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
echo "${MARK}:ready"
. /etc/vm-script.sh
echo "${MARK}:done"
sync
poweroff -f
`;
}

export interface NfsClientVmOptions {
  ns: Netns;
  /** The bridge in `ns` the VM's tap joins. */
  bridge: string;
  /** Short name (≤ 10 characters): the tap is `tap<name>`, the initrd `<workDir>/nfsvm-<name>.gz`. */
  name: string;
  /** eth0's address, CIDR ("10.95.0.50/24"). */
  address: string;
  mac?: string;
  /** Shell run after the network is up (busybox sh); `step NAME cmd…` and `mark NAME VALUE` print results. */
  script: string;
  workDir: string;
  /** Killed after this long (default 180 s under TCG). */
  timeoutMs?: number;
  memoryMiB?: number;
  onConsole?: (text: string) => void;
}

export interface NfsVmStep {
  name: string;
  rc: number;
  output: string;
}

export interface NfsClientVmResult {
  /** The serial console, CRLF turned into LF. */
  console: string;
  steps: NfsVmStep[];
  /** name → value of every `mark` (the last one wins). */
  marks: Map<string, string>;
  /** The script ran to its end (the VM printed its done marker). */
  finished: boolean;
  timedOut: boolean;
  durationMs: number;
  /** The step of that name (throws with the console's tail when it never ran). */
  step(name: string): NfsVmStep;
}

/** A booted client VM; result() waits until it powers off (or kills it at the timeout). */
export class NfsClientVm {
  private readonly child: ChildProcess;
  private text = '';
  private readonly started = Date.now();
  private readonly exited: Promise<boolean>;

  private constructor(child: ChildProcess, timeoutMs: number, onConsole: ((text: string) => void) | undefined) {
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8').replace(/\r/g, '');
      this.text = (this.text + text).slice(-2_000_000);
      onConsole?.(text);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.text += `[qemu] ${chunk.toString('utf8')}`;
    });
    this.exited = new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.kill();
        resolve(true);
      }, timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }

  static async boot(options: NfsClientVmOptions): Promise<NfsClientVm> {
    const { kernel, archive } = await base();
    const perBoot = cpioNewcGzip([
      { kind: 'dir', path: 'etc' },
      { kind: 'file', path: 'etc/vm.conf', data: Buffer.from(`VM_ADDRESS='${options.address}'\n`) },
      { kind: 'file', path: 'etc/vm-script.sh', data: Buffer.from(`${options.script}\n`) },
    ]);
    const initrd = path.join(options.workDir, `nfsvm-${options.name}.gz`);
    await writeFile(initrd, Buffer.concat([archive, perBoot]));
    const tap = `tap${options.name}`;
    await options.ns.ip('tuntap', 'add', 'dev', tap, 'mode', 'tap');
    await options.ns.ip('link', 'set', tap, 'master', options.bridge);
    await options.ns.ip('link', 'set', tap, 'up');
    const mac = options.mac ?? `52:54:00:4e:46:${(Math.abs(hash(options.name)) % 250).toString(16).padStart(2, '0')}`;
    const args = [
      '-accel', 'tcg', '-m', String(options.memoryMiB ?? 256), '-nographic', '-no-reboot',
      '-kernel', kernel.vmlinuz, '-initrd', initrd,
      // quiet: the kernel's own messages (loglevel < 4) stay off the console the markers are parsed from.
      '-append', 'console=ttyS0 quiet panic=-1 rdinit=/init',
      '-netdev', `tap,id=n0,ifname=${tap},script=no,downscript=no`,
      '-device', `${NIC_DEVICE},netdev=n0,mac=${mac},romfile=`,
    ];
    const child = options.ns.spawn('qemu-system-x86_64', args);
    return new NfsClientVm(child, options.timeoutMs ?? 180_000, options.onConsole);
  }

  get console(): string {
    return this.text;
  }

  /** Resolves with the first match of `pattern` in the console; rejects on timeout or when the VM ends first. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.text);
      if (match) return match;
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`VM ended before ${pattern}; console:\n${this.text.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} on the VM console within ${timeoutMs} ms; console:\n${this.text.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async result(): Promise<NfsClientVmResult> {
    const timedOut = await this.exited;
    return parseConsole(this.text, timedOut, Date.now() - this.started);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Boots a VM, waits for it to power off and returns what it printed. */
export async function runNfsClientVm(options: NfsClientVmOptions): Promise<NfsClientVmResult> {
  return (await NfsClientVm.boot(options)).result();
}

/** Steps and marks out of a console. */
export function parseConsole(consoleText: string, timedOut = false, durationMs = 0): NfsClientVmResult {
  const steps: NfsVmStep[] = [];
  const stepPattern = new RegExp(`^${MARK}:begin:(\\S+)\\n([\\s\\S]*?)^${MARK}:end:\\1:(\\d+)$`, 'gm');
  for (const match of consoleText.matchAll(stepPattern)) steps.push({ name: match[1] ?? '', output: match[2] ?? '', rc: Number(match[3]) });
  const marks = new Map<string, string>();
  for (const match of consoleText.matchAll(new RegExp(`^${MARK}:mark:([^:\\s]+):(.*)$`, 'gm'))) marks.set(match[1] ?? '', match[2] ?? '');
  return {
    console: consoleText,
    steps,
    marks,
    finished: new RegExp(`^${MARK}:done$`, 'm').test(consoleText),
    timedOut,
    durationMs,
    step(name: string): NfsVmStep {
      const found = steps.find((step) => step.name === name);
      if (!found) throw new Error(`the VM never finished step ${name}${timedOut ? ' (timed out)' : ''}; console:\n${consoleText.slice(-4000)}`);
      return found;
    },
  };
}

/** path → hex digest from sha256sum output. */
export function parseSha256(output: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const match of output.matchAll(/^([0-9a-f]{64}) {2}(.+)$/gm)) sums.set(match[2] ?? '', match[1] ?? '');
  return sums;
}

export interface NfsMountSpec {
  server: string;
  exportPath: string;
  /** NFS's transport; 'udp' only where nfsKernelSupportsUdp() (Debian's kernel has no NFS over UDP). */
  proto: 'tcp' | 'udp';
  /** MOUNT's transport (default: proto). MOUNT over UDP works even where NFS over UDP does not. */
  mountProto?: 'tcp' | 'udp';
  target?: string;
  /** NFS port (default 2049) and MOUNT port (default 20048): given, the kernel asks no portmapper; null: it asks the portmapper on 111. */
  port?: number | null;
  mountPort?: number | null;
  /** More options (e.g. 'hard', 'noac', 'timeo=10'). */
  options?: string[];
}

/** The busybox mount command of a read-only NFS v3 mount with the kernel's text options. */
export function nfsMountCommand(spec: NfsMountSpec): string {
  const options = [
    'vers=3',
    `proto=${spec.proto}`,
    `mountproto=${spec.mountProto ?? spec.proto}`,
    ...(spec.port === null ? [] : [`port=${spec.port ?? 2049}`]),
    ...(spec.mountPort === null ? [] : [`mountport=${spec.mountPort ?? 20048}`]),
    `addr=${spec.server}`,
    'nolock',
    'ro',
    ...(spec.options ?? []),
  ];
  return `mount -t nfs -o ${options.join(',')} ${spec.server}:${spec.exportPath} ${spec.target ?? '/mnt'}`;
}

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) | 0;
  return value;
}

/**
 * A script that mounts (`mount`, a command) and then reads `file` (a path
 * under /mnt) once a second, dropping the page cache first so every read
 * goes to the server, printing `mark read-<n> <sha256>` each time, until
 * `/mnt/<stopFile>` exists (the test creates it) or `rounds` are done; then
 * unmounts. With a hard mount a read across a server restart blocks, never
 * fails: every mark carries the file's sum.
 */
export function readLoopScript(options: { mount: string; file: string; stopFile?: string; rounds?: number }): string {
  return [
    `step mount ${options.mount}`,
    'i=0',
    `while [ $i -lt ${options.rounds ?? 150} ]; do`,
    '  i=$((i+1))',
    '  echo 3 > /proc/sys/vm/drop_caches',
    `  sum=$(sha256sum /mnt/${options.file} 2>&1 | cut -d" " -f1)`,
    '  mark read-$i "${sum:-none}"',
    `  [ -e /mnt/${options.stopFile ?? 'stop'} ] && break`,
    '  sleep 1',
    'done',
    'step umount umount /mnt',
  ].join('\n');
}

/** The highest n of the `read-<n>` marks printed so far (0 when none). */
export function lastRead(consoleText: string): number {
  return Math.max(0, ...[...consoleText.matchAll(new RegExp(`^${MARK}:mark:read-(\\d+):`, 'gm'))].map((match) => Number(match[1])));
}
