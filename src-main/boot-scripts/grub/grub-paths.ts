import { GRUB_CHAINS, LOADER_ARCHITECTURES, type GrubChain, type LoaderArchitecture } from '../../dhcp/boot-loader-chains.js';
import { MENU_KEY_PATTERN } from '../boot-menu.js';

/*
 * The files Bootwright serves to GRUB machines over TFTP (and HTTP /boot/):
 *
 * - the entry configuration, where each signed GRUB looks for its grub.cfg
 *   (GRUB_CHAINS[*].config): it loads the machine's own configuration;
 * - `grub/host/<cpu>/<mac>.cfg`, the machine's own (GRUB's `$grub_cpu` and
 *   `$net_default_mac`: TFTP has no query string, so the path carries them);
 * - `grub/host/<cpu>/<mac>/profile-<id>.cfg` and `…/choice-<key>.cfg`, a
 *   boot menu's choices, honoured only when the machine's own decision offers
 *   them (as iPXE's `profile=` and `choice=`).
 */

export const GRUB_HOST_PREFIX = 'grub/host/';

/** The entry paths, one per chain (x64 and ARM64 GRUBs have different prefixes). */
export function grubEntryChain(path: string): { architecture: LoaderArchitecture; chain: GrubChain } | null {
  for (const architecture of LOADER_ARCHITECTURES) {
    const chain = GRUB_CHAINS[architecture];
    if (chain.config === path) return { architecture, chain };
  }
  return null;
}

/** A request for a machine's GRUB configuration, as its path names it. */
export interface GrubHostRequest {
  /** `$grub_cpu`: x86_64, arm64, i386… */
  cpu: string;
  /** As GRUB wrote it (lowercase colon-separated on EFI); checked by the caller. */
  mac: string;
  profileId: number | null;
  choice: string | null;
}

const CPU = /^[a-z0-9_]{1,16}$/;
const MAC = /^[0-9A-Fa-f:.-]{0,32}$/;

/** Parses `grub/host/<cpu>/<mac>.cfg` and its choices; null for any other path. An empty MAC parses (the caller answers it). */
export function parseGrubHostPath(path: string): GrubHostRequest | null {
  if (!path.startsWith(GRUB_HOST_PREFIX) || !path.endsWith('.cfg')) return null;
  const parts = path.slice(GRUB_HOST_PREFIX.length, -'.cfg'.length).split('/');
  const [cpu, mac, choice] = parts;
  if (cpu === undefined || mac === undefined || !CPU.test(cpu) || parts.length > 3) return null;
  if (choice === undefined) return MAC.test(mac) ? { cpu, mac, profileId: null, choice: null } : null;
  if (!MAC.test(mac)) return null;
  const profile = /^profile-([1-9][0-9]{0,9})$/.exec(choice);
  if (profile) return { cpu, mac, profileId: Number(profile[1]), choice: null };
  const key = /^choice-(.+)$/.exec(choice)?.[1];
  if (key !== undefined && MENU_KEY_PATTERN.test(key)) return { cpu, mac, profileId: null, choice: key };
  return null;
}

/** Whether `path` is one of Bootwright's GRUB files (no rendering: the boot-file checks ask). */
export function ownsGrubPath(path: string): boolean {
  return grubEntryChain(path) !== null || parseGrubHostPath(path) !== null;
}

export function grubHostPath(cpu: string, mac: string): string {
  return `${GRUB_HOST_PREFIX}${cpu}/${mac}.cfg`;
}

export function grubChoicePath(cpu: string, mac: string, target: { profile_id: number } | { key: string }): string {
  const name = 'profile_id' in target ? `profile-${target.profile_id}` : `choice-${target.key}`;
  return `${GRUB_HOST_PREFIX}${cpu}/${mac}/${name}.cfg`;
}
