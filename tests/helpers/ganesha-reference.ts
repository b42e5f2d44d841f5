import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Netns } from './netns.js';

/*
 * NFS-Ganesha (VFS FSAL) as a reference NFS v3 server inside a test
 * namespace: what the NFS client harnesses are proven against before our own
 * server exists, and what a client behaves like against a known-good server.
 * Ganesha insists on registering with rpcbind, so an rpcbind runs next to it
 * — with a private /run, so its socket and lock files never meet another
 * test's rpcbind.
 */

export const GANESHA_NFS_PORT = 2049;
export const GANESHA_MOUNT_PORT = 20048;

export interface GaneshaOptions {
  /** Folder exported read-only. */
  folder: string;
  /** The path clients mount (Mount_Path_Pseudo: MOUNT takes this, not the folder's path). */
  exportPath: string;
  /** Allowed clients (CIDR). */
  clients: string;
  /** Where its config, log and pid file go. */
  workDir: string;
}

export interface Ganesha {
  /** SIGKILLs ganesha.nfsd (rpcbind keeps running, as on a real server) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts ganesha.nfsd again on the same config; resolves when it is initialized. */
  start(): Promise<void>;
  log(): Promise<string>;
}

/**
 * Starts rpcbind + ganesha.nfsd in `ns`; resolves when Ganesha says it is
 * initialized. Each runs in a mount namespace of its own whose /run is the
 * same folder of `workDir`, so they find each other's socket and nothing
 * else's. The namespace's lab kills both.
 */
export async function startGanesha(ns: Netns, options: GaneshaOptions): Promise<Ganesha> {
  const conf = path.join(options.workDir, 'ganesha.conf');
  const logFile = path.join(options.workDir, 'ganesha.log');
  const run = path.join(options.workDir, 'run');
  await mkdir(path.join(run, 'rpcbind'), { recursive: true });
  await writeFile(
    conf,
    `NFS_CORE_PARAM { Protocols = 3; NFS_Port = ${GANESHA_NFS_PORT}; MNT_Port = ${GANESHA_MOUNT_PORT}; Enable_NLM = false; Enable_RQUOTA = false; Mount_Path_Pseudo = true; }
NFS_KRB5 { Active_krb5 = false; }
NFSV4 { Graceless = true; }
EXPORT {
  Export_Id = 1; Path = ${options.folder}; Pseudo = ${options.exportPath};
  Access_Type = NONE; Squash = No_Root_Squash; SecType = sys; Protocols = 3; Transports = UDP, TCP;
  FSAL { Name = VFS; }
  CLIENT { Clients = ${options.clients}; Access_Type = RO; }
}
`,
  );
  const inPrivateRun = (command: string) => ns.spawn('unshare', ['-m', 'sh', '-c', `mount --bind ${run} /run && exec ${command}`]);
  const rpcbind = inPrivateRun('rpcbind -w -f');
  rpcbind.stdout?.resume();
  rpcbind.stderr?.resume();
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  const until = async (what: string, done: () => Promise<boolean>, child: ChildProcess) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (await done()) return;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what}; ganesha's log:\n${(await log()).slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await until('rpcbind did not start', async () => existsSync(path.join(run, 'rpcbind.sock')), rpcbind);
  let child: ChildProcess | null = null;
  const start = async () => {
    const before = (await log()).split('NFS SERVER INITIALIZED').length;
    const started = inPrivateRun(`ganesha.nfsd -F -f ${conf} -L ${logFile} -p ${path.join(options.workDir, 'ganesha.pid')} -N NIV_EVENT`);
    started.stdout?.resume();
    started.stderr?.resume();
    child = started;
    await until('ganesha did not start', async () => (await log()).split('NFS SERVER INITIALIZED').length > before, started);
  };
  await start();
  return {
    start,
    log,
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
}
