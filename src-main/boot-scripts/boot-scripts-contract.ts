import { Type, type Static } from 'typebox';
import { PROFILE_FILE_STATES } from '../boot-files/boot-files-contract.js';
import { nullable } from '../core/http-kit/common-contract.js';
import { BOOT_LOADERS } from '../settings/settings-contract.js';
import { MAX_TEMPLATE_CHARS } from '../templates/templates-contract.js';

/*
 * The boot scripts API's contract: the schemas and constants of the host
 * boot-config preview (/api/v1/hosts/{id}/boot-config) and of the iPXE entry
 * script (/api/v1/services/ipxe-script). It imports nothing but typebox and
 * other contracts (a test checks it) so the renderer imports it too (alias
 * @contracts/boot-scripts).
 */

/** Why a machine boots what it boots (the preview's `reason`). */
export const BOOT_REASONS = ['host_assignment', 'group_default', 'global_default', 'host_disabled', 'menu_choice', 'access_denied', 'netboot_task'] as const;
export type BootReason = (typeof BOOT_REASONS)[number];

/** What a machine gets: a profile's script, the global menu of all profiles, its local disk, nothing, or its install task's installer. */
export const BOOT_ACTIONS = ['profile', 'menu', 'local', 'denied', 'install'] as const;
export type BootAction = (typeof BOOT_ACTIONS)[number];

/**
 * A file a script fetches: the iPXE command (kernel, initrd, chain, sanboot…), its URL, and whether this
 * server has it (`state`, for URLs under this server's /boot/: present, served, missing, refused; remote
 * for other URLs; templated when the URL is built at boot time).
 */
export const ScriptFileSchema = Type.Object({
  command: Type.String(),
  url: Type.String(),
  state: Type.Enum([...PROFILE_FILE_STATES], { description: 'present, served, missing, refused, remote or templated' }),
});

/** Where the machine's loader was decided: a reservation's boot_file, the host, its group, its architecture's default, or fixed (BIOS and others: iPXE only). */
export const LOADER_SOURCES = ['reservation', 'host', 'group', 'architecture', 'fixed'] as const;

/** The first stage a machine gets from DHCP and why (the preview's `loader`). */
export const LoaderPreviewSchema = Type.Object({
  kind: Type.Enum([...BOOT_LOADERS], { description: 'ipxe (iPXE scripts) or grub (signed shim → GRUB with a rendered configuration)' }),
  architecture: Type.Union([Type.Enum(['bios', 'uefi_x64', 'uefi_arm64', 'other']), Type.Null()], {
    description: 'As last seen at boot (or set on the host); null when not known yet: the preview assumes x64 UEFI',
  }),
  first_stage: nullable<string>('string', { description: 'The file DHCP hands out (relative to the boot root); null when the architecture has none' }),
  source: Type.Enum([...LOADER_SOURCES], { description: 'reservation, host, group, architecture or fixed' }),
  reason_text: Type.String(),
});

/** What a host would receive if it booted now (GET /hosts/{id}/boot-config). */
export const BootPreviewSchema = Type.Object(
  {
    host_id: Type.Integer(),
    mac: Type.String(),
    action: Type.Enum([...BOOT_ACTIONS], { description: 'profile, menu (the netboot default menu), local, denied or install (an install task\'s installer)' }),
    reason: Type.Enum([...BOOT_REASONS], { description: 'Why: host_assignment, group_default, global_default, host_disabled, menu_choice, access_denied, netboot_task' }),
    reason_text: Type.String(),
    profile: Type.Union([
      Type.Object({ id: Type.Integer(), name: Type.String(), boot_type: Type.String(), script_version: Type.Integer() }),
      Type.Null(),
    ]),
    loader: LoaderPreviewSchema,
    script: Type.String({ description: 'The rendered iPXE script the host would receive now' }),
    grub_config: nullable<string>('string', {
      description: 'The GRUB configuration the host would receive now through the signed chain; null for BIOS machines (iPXE only)',
    }),
    grub_config_path: nullable<string>('string', { description: 'Where GRUB fetches it over TFTP (relative to the TFTP root)' }),
    render_error: nullable<string>('string', { description: 'Set when the template fails: the host would get the fallback script shown in `script`' }),
    files: Type.Array(ScriptFileSchema, { description: 'What the script would fetch' }),
    entry_url: Type.String(),
    script_url: Type.String(),
    client_ip: nullable<string>('string', { description: 'Client address assumed (last seen or fixed IP)' }),
    servers: Type.Array(
      Type.Object({
        interface: nullable<string>('string'),
        subnet: Type.String(),
        address: Type.String({ description: 'Our address the machine is told on that subnet' }),
        entry_url: Type.String(),
      }),
      {
        description:
          "The server address the boot uses: the one on the machine's subnet when its address is known, else one per subnet it may boot from (served interfaces and DHCP interfaces, link or not). `script` is rendered for the first; empty when no interface has an address",
      },
    ),
  },
  { $id: 'HostBootConfig' },
);

/** The entry script every client runs first (GET/PUT /services/ipxe-script). */
export const EntryScriptSchema = Type.Object(
  {
    script: Type.String({ description: 'The entry script template in use' }),
    is_default: Type.Boolean({ description: 'true while the built-in default is in use' }),
    default_script: Type.String({ description: 'The built-in default, for comparison and as a starting point' }),
    updated_at: nullable<string>('string', { format: 'date-time' }),
    updated_by: nullable<string>('string'),
  },
  { $id: 'IpxeEntryScript' },
);

export const EntryScriptUpdateSchema = Type.Object(
  {
    script: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_CHARS, description: 'A new template (must render to a script starting with #!ipxe)' })),
    reset: Type.Optional(Type.Literal(true, { description: 'Restore the built-in default' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'Either {"script": "..."} or {"reset": true}' },
);

export type ScriptFile = Static<typeof ScriptFileSchema>;
export type LoaderPreview = Static<typeof LoaderPreviewSchema>;
export type BootPreview = Static<typeof BootPreviewSchema>;
export type EntryScriptView = Static<typeof EntryScriptSchema>;
export type EntryScriptUpdate = Static<typeof EntryScriptUpdateSchema>;
