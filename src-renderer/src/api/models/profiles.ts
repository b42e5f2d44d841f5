export const BOOT_TYPES = ['ipxe_script', 'linux', 'chain', 'sanboot', 'local', 'menu'] as const;
export type BootType = (typeof BOOT_TYPES)[number];

export const BOOT_TYPE_LABELS: Record<BootType, string> = {
  ipxe_script: 'iPXE script',
  linux: 'Linux kernel',
  chain: 'Chain (URL)',
  sanboot: 'SAN boot (ISO/disk image)',
  local: 'Local disk',
  menu: 'Menu',
};

export interface LinuxBoot {
  kernel: string;
  initrds: string[];
  cmdline: string;
}

export interface MenuEntry {
  profile_id: number;
  label: string;
}

export interface MenuBoot {
  title: string;
  entries: MenuEntry[];
  default_entry: number | null;
  timeout_seconds: number;
}

export interface Profile {
  id: number;
  name: string;
  description: string;
  boot_type: BootType;
  script: string;
  linux: LinuxBoot | null;
  chain: { url: string } | null;
  sanboot: { url: string } | null;
  menu: MenuBoot | null;
  variables: Record<string, string>;
  default_for_groups: string[];
  script_version: number;
  created_at: string;
  updated_at: string;
}

/** POST/PUT /profiles body (PUT: any subset). */
export interface ProfileInput {
  name?: string;
  boot_type?: BootType;
  description?: string;
  script?: string;
  linux?: { kernel: string; initrds?: string[]; cmdline?: string };
  chain?: { url: string };
  sanboot?: { url: string };
  menu?: { title?: string; entries: { profile_id: number; label?: string }[]; default_entry?: number | null; timeout_seconds?: number };
  variables?: Record<string, string>;
  default_for_groups?: string[];
  comment?: string;
}

export interface ScriptVersion {
  id: number;
  profile_id: number;
  version: number;
  boot_type: BootType;
  script: string;
  author: string;
  comment: string;
  created_at: string;
}

export interface ScriptDiff {
  profile_id: number;
  from_version: number;
  to_version: number;
  diff: string;
  additions: number;
  deletions: number;
}
