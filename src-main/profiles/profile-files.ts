import type { BootFilePresence } from '../boot-files/boot-files.js';
import type { ProfileFileCheck, ProfileFileState } from '../boot-files/boot-files-contract.js';
import type { Profile } from './profile-types.js';

/** One file a profile names, as written (a path under the boot root, a URL or a template). */
export interface ProfileFileRef {
  field: string;
  path: string;
}

/** The kernel and initrds of a linux profile, the URL of a chain or sanboot profile; none for the others. */
export function profileFileRefs(profile: Pick<Profile, 'boot_type' | 'linux' | 'chain' | 'sanboot'>): ProfileFileRef[] {
  if (profile.boot_type === 'linux' && profile.linux) {
    return [
      { field: 'linux.kernel', path: profile.linux.kernel },
      ...profile.linux.initrds.map((initrd, index) => ({ field: `linux.initrds[${index}]`, path: initrd })),
    ];
  }
  if (profile.boot_type === 'chain' && profile.chain) return [{ field: 'chain.url', path: profile.chain.url }];
  if (profile.boot_type === 'sanboot' && profile.sanboot) return [{ field: 'sanboot.url', path: profile.sanboot.url }];
  return [];
}

/** Built at boot time from template or iPXE expressions: nothing to check before a machine asks. */
const TEMPLATED = /\{\{|\{%|\$\{/;
/** scheme:// (http, https, tftp, iscsi, nfs…): not a file of ours. */
const REMOTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Where `path` comes from, asking `presence` only for plain paths under the boot root. */
export async function fileState(path: string, presence: (path: string) => Promise<BootFilePresence>): Promise<ProfileFileState> {
  if (TEMPLATED.test(path)) return 'templated';
  if (REMOTE.test(path)) return 'remote';
  const found = await presence(path);
  return found === 'file' ? 'present' : found === 'virtual' ? 'served' : found;
}

/** The files of one profile and their states. */
export async function checkProfileFiles(profile: Profile, presence: (path: string) => Promise<BootFilePresence>): Promise<ProfileFileCheck[]> {
  const checks: ProfileFileCheck[] = [];
  for (const ref of profileFileRefs(profile)) {
    checks.push({ profile_id: profile.id, profile_name: profile.name, field: ref.field, path: ref.path, state: await fileState(ref.path, presence) });
  }
  return checks;
}

/** The warnings a save answers with: one per file that a machine booting this profile would not get. */
export function missingFileWarnings(checks: readonly ProfileFileCheck[], bootRoot: string): string[] {
  return checks
    .filter((check) => check.state === 'missing' || check.state === 'refused')
    .map((check) =>
      check.state === 'missing'
        ? `${check.field}: ${check.path} does not exist in the boot root (${bootRoot}); machines booting this profile will fail to fetch it`
        : `${check.field}: ${check.path} is outside the boot root and will not be served`,
    );
}
