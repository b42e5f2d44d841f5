import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Netns } from './netns.js';

/*
 * NFS-Ganesha (VFS FSAL) as a reference NFS v3 server inside a test
 * namespace: what the NFS client harnesses are proven against before our own
 * server exists, and what a client behaves like against a known-good server.
 * Ganesha insists on registering with rpcbind, so an rpcbind runs next to it
 * — in a private mount namespace with its own /run, so its socket and lock
 * files never meet another test's rpcbind.
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
  child: ChildProcess;
  log(): Promise<string>;
}

/** Starts rpcbind + ganesha.nfsd in `ns`; resolves when Ganesha says it is initialized. The namespace's lab kills both. */
export async function startGanesha(ns: Netns, options: GaneshaOptions): Promise<Ganesha> {
  const conf = path.join(options.workDir, 'ganesha.conf');
  const logFile = path.join(options.workDir, 'ganesha.log');
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
  const script = path.join(options.workDir, 'ganesha.sh');
  await writeFile(
    script,
    `mount -t tmpfs tmpfs /run
mkdir -p /run/rpcbind
rpcbind -w -f &
i=0; while [ ! -S /run/rpcbind.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
exec ganesha.nfsd -F -f ${conf} -L ${logFile} -p ${path.join(options.workDir, 'ganesha.pid')} -N NIV_EVENT
`,
  );
  const child = ns.spawn('unshare', ['-m', 'sh', script]);
  child.stdout?.resume();
  child.stderr?.resume();
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if ((await log()).includes('NFS SERVER INITIALIZED')) return { child, log };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`ganesha did not start; its log:\n${(await log()).slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
