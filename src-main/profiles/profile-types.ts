import type { Row } from '../store/collection.js';

/** What a profile boots (docs/hosts-and-profiles.md, "Boot types"). */
export const BOOT_TYPES = ['ipxe_script', 'linux', 'chain', 'sanboot', 'local', 'menu'] as const;
export type BootType = (typeof BOOT_TYPES)[number];

/** A kernel with initrds and a command line; paths are relative to the boot root or absolute URLs. */
export interface LinuxConfig {
  kernel: string;
  initrds: string[];
  cmdline: string;
}

/** Another boot script or loader to chain to. */
export interface ChainConfig {
  url: string;
}

/** An ISO or disk image booted over the network (iPXE `sanboot`). */
export interface SanbootConfig {
  url: string;
}

export interface MenuEntry {
  profile_id: number;
  /** Shown in the menu; the entry profile's name when the menu was saved, unless given. */
  label: string;
}

/** An iPXE menu of other profiles, with "boot from the local disk" always last. */
export interface MenuConfig {
  title: string;
  entries: MenuEntry[];
  /** The entry chosen on timeout; null chooses the local disk. */
  default_entry: number | null;
  /** 0 waits for a key press. */
  timeout_seconds: number;
}

/** The per-type settings; exactly the one matching `boot_type` is set (none for ipxe_script and local). */
export interface BootSource {
  boot_type: BootType;
  linux: LinuxConfig | null;
  chain: ChainConfig | null;
  sanboot: SanbootConfig | null;
  menu: MenuConfig | null;
}

export interface Profile extends Row, BootSource {
  name: string;
  description: string;
  /** The script template: written by hand for ipxe_script, generated from the settings for the other types. */
  script: string;
  /** Values templates see as `variables.<name>`. */
  variables: Record<string, string>;
  /** Hosts in these groups without a profile of their own boot this one. */
  default_for_groups: string[];
  /** The version number of `script` (the latest script version). */
  script_version: number;
}

/** One saved state of a profile's script. Versions are never changed or removed while the profile exists. */
export interface ScriptVersion extends Row {
  profile_id: number;
  version: number;
  script: string;
  /** The settings the script was generated from, so a rollback restores them too. */
  source: BootSource;
  /** Username of the principal who made the change (`local` over IPC). */
  author: string;
  comment: string;
}

export interface MenuInput {
  title?: string;
  entries: { profile_id: number; label?: string }[];
  default_entry?: number | null;
  timeout_seconds?: number;
}

/** What a client sends (create: name and boot_type required; update: any subset). */
export interface ProfileInput {
  name?: string;
  description?: string;
  boot_type?: BootType;
  script?: string;
  linux?: { kernel: string; initrds?: string[]; cmdline?: string } | null;
  chain?: ChainConfig | null;
  sanboot?: SanbootConfig | null;
  menu?: MenuInput | null;
  variables?: Record<string, string>;
  default_for_groups?: string[];
}

/** Who makes a change and why: becomes the new script version's author and comment. */
export interface ChangeNote {
  author: string;
  comment?: string;
}

export const PROFILE_SORT_FIELDS = ['id', 'name', 'boot_type', 'script_version', 'created_at', 'updated_at'] as const satisfies readonly (keyof Profile)[];
export const VERSION_SORT_FIELDS = ['id', 'version', 'author', 'created_at'] as const satisfies readonly (keyof ScriptVersion)[];
