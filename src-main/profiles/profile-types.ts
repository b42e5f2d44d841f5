import type { Row } from '../store/collection.js';
import type { BootType, ChainConfig, LinuxConfig, MenuConfig, Profile, SanbootConfig } from './profiles-contract.js';

// The API shapes are the contract's (Static<> of its schemas); this file adds the stored-only ones.
export {
  BOOT_TYPES,
  type BootType,
  type ChainConfig,
  type LinuxConfig,
  type MenuConfig,
  type MenuEntry,
  type MenuInput,
  type Profile,
  type ProfileInput,
  type SanbootConfig,
} from './profiles-contract.js';

/** The per-type settings; exactly the one matching `boot_type` is set (none for ipxe_script and local). */
export interface BootSource {
  boot_type: BootType;
  linux: LinuxConfig | null;
  chain: ChainConfig | null;
  sanboot: SanbootConfig | null;
  menu: MenuConfig | null;
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

/** Who makes a change and why: becomes the new script version's author and comment. */
export interface ChangeNote {
  author: string;
  comment?: string;
}

export const PROFILE_SORT_FIELDS = ['id', 'name', 'boot_type', 'script_version', 'created_at', 'updated_at'] as const satisfies readonly (keyof Profile)[];
export const VERSION_SORT_FIELDS = ['id', 'version', 'author', 'created_at'] as const satisfies readonly (keyof ScriptVersion)[];
