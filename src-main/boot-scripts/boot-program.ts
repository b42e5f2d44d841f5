/**
 * What a machine boots, independent of the loader that carries it out: the
 * iPXE scripts are written by hand or generated from profiles, and the GRUB
 * configurations (grub/grub-config.ts) are rendered from this. One boot
 * decision (host, group, netboot default, install task, menu choice) gives
 * both, so an x86 BIOS machine on iPXE and a Secure Boot or ARM64 machine on
 * GRUB boot the same profile.
 */

/** Boot a Linux kernel with initrds. URLs are absolute (`http://<server>:<port>/boot/...` for ours). */
export interface LinuxProgram {
  kind: 'linux';
  /** For people: shown while it loads, e.g. `profile "ubuntu-24.04"`. */
  label: string;
  kernel: string;
  initrds: readonly string[];
  /** The rendered kernel command line, as the kernel should receive it. */
  cmdline: string;
}

/** A menu: profiles and other areas' choices, local disk last. */
export interface MenuProgram {
  kind: 'menu';
  title: string;
  /** 0: wait forever. */
  timeout_seconds: number;
  /** The item chosen at the timeout; null: the local disk. */
  default_profile_id: number | null;
  profiles: readonly { profile_id: number; label: string }[];
  sections: readonly { title: string; items: readonly { key: string; label: string }[] }[];
}

/** Boot from the local disk (back to the firmware's next boot device). */
export interface LocalProgram {
  kind: 'local';
  message: string;
}

/** Nothing to boot: say why. `retry`: look again later (a template that failed, files still missing); else back to the firmware. */
export interface MessageProgram {
  kind: 'message';
  message: string;
  retry: boolean;
}

/** Something only iPXE can do (an iPXE script, sanboot, chain, wimboot): `reason` says what and what to change. */
export interface IpxeOnlyProgram {
  kind: 'ipxe_only';
  label: string;
  reason: string;
}

export type BootProgram = LinuxProgram | MenuProgram | LocalProgram | MessageProgram | IpxeOnlyProgram;
