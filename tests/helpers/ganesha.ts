import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Netns } from './netns.js';

/*
 * NFS-Ganesha (Debian nfs-ganesha + nfs-ganesha-vfs) as a reference NFS v3
 * server inside a test namespace: one read-only VFS export, MOUNT and NFS on
 * their usual ports, and its own rpcbind.
 *
 * Ganesha registers its programs with rpcbind and will not serve without it.
 * rpcbind's socket and lock file live under /run, which every namespace
 * shares (a network namespace is not a mount namespace): a second rpcbind
 * would find the lock taken, and Ganesha would register with whichever
 * rpcbind owns /run/rpcbind.sock — maybe another namespace's. `ip netns exec`
 * runs its command in a mount namespace of its own, so the start script
 * mounts a private tmpfs on /run first; rpcbind and Ganesha, started by that
 * script, see only each other. Nothing outside is touched. Both processes are
 * in the namespace: NetLab.destroy() kills them with it.
 */

export interface GaneshaExport {
  /** The exported folder (absolute). */
  folder: string;
  /** What clients mount (NFS v3 mounts use it too: Mount_Path_Pseudo). */
  path: string;
  /** Allowed clients (CIDR or address). */
  clients: string[];
}

export interface GaneshaOptions {
  workDir: string;
  exports: GaneshaExport[];
  /** taskset CPU list for Ganesha and its rpcbind, e.g. "1". */
  cpus?: string;
  /** Largest READ (rtmax); default 1 MiB, what Bootwright's FSINFO offers over TCP. */
  maxRead?: number;
  transports?: ('TCP' | 'UDP')[];
  logLevel?: 'NIV_WARN' | 'NIV_EVENT' | 'NIV_DEBUG';
}

export interface Ganesha {
  /** Ganesha's log file (it logs there, not to stdout). */
  logFile: string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** ganesha.conf text for the options (NFS v3 only, no NLM/RQUOTA/Kerberos/v4 recovery state outside workDir). */
export function ganeshaConfig(options: GaneshaOptions): string {
  const maxRead = options.maxRead ?? 1024 * 1024;
  const transports = (options.transports ?? ['TCP', 'UDP']).join(', ');
  const exports = options.exports.map(
    (exp, index) =>
      `EXPORT {\n  Export_Id = ${index + 1};\n  Path = "${exp.folder}";\n  Pseudo = "${exp.path}";\n  Access_Type = RO;\n  Squash = No_Root_Squash;\n  SecType = sys;\n  Protocols = 3;\n  Transports = ${transports};\n  MaxRead = ${maxRead};\n  PrefRead = ${maxRead};\n  FSAL { Name = VFS; }\n  CLIENT { Clients = ${exp.clients.join(', ')}; Access_Type = RO; Protocols = 3; }\n}\n`,
  );
  return (
    `NFS_CORE_PARAM {\n  Protocols = 3;\n  NFS_Port = 2049;\n  MNT_Port = 20048;\n  Enable_NLM = false;\n  Enable_RQUOTA = false;\n  Mount_Path_Pseudo = true;\n}\n` +
    `NFS_KRB5 { Active_krb5 = false; }\n` +
    `NFSV4 { Graceless = true; RecoveryRoot = "${path.join(options.workDir, 'recovery')}"; }\n` +
    exports.join('')
  );
}

function pinned(cpus: string | undefined, command: string): string {
  return cpus === undefined ? command : `taskset -c ${cpus} ${command}`;
}

/** Starts rpcbind and Ganesha in `ns`; resolves once NFS v3 answers a NULL call over TCP there. */
export async function startGanesha(ns: Netns, options: GaneshaOptions): Promise<Ganesha> {
  const conf = path.join(options.workDir, 'ganesha.conf');
  const logFile = path.join(options.workDir, 'ganesha.log');
  await writeFile(conf, ganeshaConfig(options));
  const script = [
    'set -e',
    'mount -t tmpfs bench-run /run',
    'mkdir -p /run/rpcbind',
    `${pinned(options.cpus, 'rpcbind -f')} &`,
    // rpcbind must own its socket before Ganesha registers.
    'i=0; while [ ! -S /run/rpcbind.sock ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done',
    `exec ${pinned(options.cpus, `ganesha.nfsd -F -f ${conf} -L ${logFile} -p ${path.join(options.workDir, 'ganesha.pid')} -N ${options.logLevel ?? 'NIV_WARN'}`)}`,
  ].join('\n');
  const child: ChildProcess = ns.spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`ganesha.nfsd exited (${child.exitCode ?? child.signalCode}): ${output}\n${(await log()).slice(-3000)}`);
    const probe = await ns.run('rpcinfo', ['-t', '127.0.0.1', '100003', '3'], { timeoutMs: 5_000 });
    if (probe.code === 0) break;
    if (Date.now() > deadline) throw new Error(`Ganesha did not answer NFS v3 within 30 s: ${probe.stderr.trim()}\n${output}\n${(await log()).slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    logFile,
    log,
    async stop() {
      // rpcbind goes with the namespace (NetLab.destroy kills every process in it).
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // Ganesha's shutdown waits on its worker threads; it may take a while, but not forever.
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
