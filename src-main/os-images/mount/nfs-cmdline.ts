/*
 * "Boot this ISO over NFS": the detection's network command line (written for
 * HTTP, with `{{ image_url }}` / `{{ iso_url }}`) turned into one whose root
 * or installation medium is the image's NFS export. Only boot systems that
 * document an NFS source are turned; the rest answer null (HTTP only):
 *
 * - casper (Ubuntu live and its installer): `netboot=nfs nfsroot=<server>:<path>`
 *   replaces `url=` (casper(7), "netboot").
 * - live-boot (Debian live, Clonezilla, GParted): `netboot=nfs nfsroot=…`
 *   replaces `fetch=` (live-boot(7)).
 * - Anaconda (RHEL, Rocky, Alma, Fedora installers): `inst.repo=nfs:<server>:<path>`,
 *   `inst.stage2=nfs:…` (the Anaconda boot options).
 * - archiso (Arch, SystemRescue): `archiso_nfs_srv=<server>:<path>` replaces
 *   `archiso_http_srv=` (the archiso boot parameters).
 *
 * dracut's live images (`root=live:`), openSUSE's `install=`, Alpine's
 * repositories and Debian's installer stay HTTP only: their NFS forms are
 * not what their media are built for, or not documented.
 *
 * `{{ nfs_root }}` stands for `<server>:<export path>`; boot-profile.ts fills it per client.
 */

const IMAGE_URL = /\{\{\s*image_url\s*\}\}/;
const ISO_URL = /\{\{\s*iso_url\s*\}\}/;
export const NFS_ROOT_PLACEHOLDER = '{{ nfs_root }}';

/** One boot system: how its command line is recognised, which argument names the HTTP source, and what replaces it. */
interface BootSystem {
  kind: string;
  /** Whether the command line is this system's (casper and live-boot are named by `boot=`). */
  owns: (args: readonly string[]) => boolean;
  source: (arg: string) => boolean;
  replace: (arg: string) => string[];
}

const NFS_ROOT_ARGS = ['netboot=nfs', `nfsroot=${NFS_ROOT_PLACEHOLDER}`];

const SYSTEMS: readonly BootSystem[] = [
  // casper: the ISO over HTTP (url=) becomes the tree over NFS.
  { kind: 'casper', owns: (args) => args.includes('boot=casper'), source: (arg) => /^url=/.test(arg) && ISO_URL.test(arg), replace: () => NFS_ROOT_ARGS },
  // live-boot: the squashfs fetched over HTTP (fetch=) becomes the tree over NFS.
  { kind: 'live-boot', owns: (args) => args.includes('boot=live'), source: (arg) => /^fetch=/.test(arg) && IMAGE_URL.test(arg), replace: () => NFS_ROOT_ARGS },
  {
    kind: 'anaconda',
    owns: (args) => args.some((arg) => /^inst\.(repo|stage2)=/.test(arg)),
    source: (arg) => /^inst\.(repo|stage2)=/.test(arg) && IMAGE_URL.test(arg),
    replace: (arg) => [`${arg.slice(0, arg.indexOf('='))}=nfs:${NFS_ROOT_PLACEHOLDER}`],
  },
  { kind: 'archiso', owns: (args) => args.some((arg) => arg.startsWith('archisobasedir=')), source: (arg) => /^archiso_http_srv=/.test(arg) && IMAGE_URL.test(arg), replace: () => [`archiso_nfs_srv=${NFS_ROOT_PLACEHOLDER}`] },
];

/** The command line with its HTTP source turned into the NFS export, or null when its boot system takes no NFS source. */
export function nfsCmdline(cmdline: string): { cmdline: string; kind: string } | null {
  // Arguments split at spaces outside Liquid tags (`url={{ iso_url }}` is one argument).
  const args = cmdline.match(/(?:\{\{.*?\}\}|\S)+/g) ?? [];
  const system = SYSTEMS.find((candidate) => candidate.owns(args) && args.some(candidate.source));
  if (!system) return null;
  const out: string[] = [];
  for (const arg of args) {
    for (const next of system.source(arg) ? system.replace(arg) : [arg]) if (!out.includes(next)) out.push(next);
  }
  // Every HTTP source must have been turned: a line still fetching over HTTP is not an NFS boot.
  if (out.some((arg) => IMAGE_URL.test(arg) || ISO_URL.test(arg))) return null;
  return { cmdline: out.join(' '), kind: system.kind };
}
