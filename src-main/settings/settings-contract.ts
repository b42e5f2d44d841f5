import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { GROUP_PATTERN, LOG_LEVELS, nullable } from '../core/http-kit/common-contract.js';
import { NicSchema, ResolvedServerAddressSchema } from '../network/network-contract.js';

/*
 * The settings API's contract (/api/v1/settings/*): typebox and other
 * contracts only (the renderer imports it: @contracts/settings).
 */

/**
 * The four settings sections. Each has one property map; the stored value,
 * the GET response and the PUT body (every field optional, unknown fields
 * rejected) are built from it, so the three never disagree.
 */

const GeneralFields = {
  server_name: Type.String({
    minLength: 1,
    maxLength: 63,
    description: 'Name of this server (one DNS label, RFC 1123): DNS auto-records and the UI title',
  }),
  update_feed_url: nullable<string>('string', {
    minLength: 1,
    maxLength: 2048,
    description: 'http(s) URL of the update feed (JSON); null disables update checks',
  }),
  allowed_hosts: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
    maxItems: 64,
    uniqueItems: true,
    description: 'Extra host names or IP addresses (no port) the HTTP server answers to in the Host header',
  }),
};

const ServerAddressOverrideSchema = Type.Object(
  {
    subnet: Type.String({ minLength: 1, maxLength: 64, description: 'CIDR, e.g. 192.168.10.0/24' }),
    address: Type.String({ minLength: 1, maxLength: 64, description: 'Our address inside that subnet' }),
  },
  { additionalProperties: false },
);

const InterfacesFields = {
  served: Type.Union(
    [Type.Enum(['auto']), Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64, uniqueItems: true })],
    { description: '"auto" (every non-loopback interface that is up, also ones that appear later) or the NIC names to serve' },
  ),
  server_addresses: Type.Array(ServerAddressOverrideSchema, {
    maxItems: 256,
    description: 'Overrides of the server address handed to clients on a subnet',
  }),
};

/**
 * The boot loaders a UEFI machine may get first (docs/secure-boot-arm64.md):
 * `ipxe`, iPXE and its scripts (fast HTTP, every profile type; not Secure
 * Boot signed, no ARM64 build bundled); `grub`, the signed chain shim → GRUB
 * with a configuration Bootwright renders (Secure Boot on or off, x64 and
 * ARM64; linux profiles, menus and install tasks, loaded over TFTP).
 */
export const BOOT_LOADERS = ['ipxe', 'grub'] as const;
export type BootLoader = (typeof BOOT_LOADERS)[number];


export const BootLoadersSchema = Type.Object(
  {
    uefi_x64: Type.Enum([...BOOT_LOADERS], { description: 'x64 UEFI machines (option 93 codes 7 and 9): grub (the signed chain, works with Secure Boot on or off) or ipxe' }),
    uefi_arm64: Type.Enum([...BOOT_LOADERS], { description: 'ARM64 UEFI machines (option 93 code 11): grub, or ipxe when an ARM64 iPXE (ipxe-arm64.efi) is in the boot root' }),
    groups: Type.Record(Type.String({ pattern: GROUP_PATTERN }), Type.Enum([...BOOT_LOADERS]), {
      maxProperties: 256,
      description: "Per host group: the loader its UEFI machines get, over the architecture's default (a host's own boot_loader wins over both)",
    }),
  },
  { additionalProperties: false },
);
export type BootLoaders = Static<typeof BootLoadersSchema>;

const NetbootFields = {
  default_action: Type.Enum(['menu', 'local', 'profile'], {
    description: 'What an unknown machine boots: the boot menu, its local disk, or default_profile_id',
  }),
  default_profile_id: nullable<number>('integer', {
    minimum: 1,
    description: 'Profile booted by unknown machines; required when default_action is "profile"',
  }),
  menu_timeout_seconds: Type.Integer({ minimum: 0, maximum: 600, description: 'Boot menu timeout; 0 waits forever' }),
  record_unknown_hosts: Type.Boolean({ description: 'Record machines that boot without a host entry' }),
  cache_max_mb: Type.Integer({ minimum: 64, maximum: 1_048_576, description: 'Size limit of the netboot download cache; least recently used files are evicted beyond it' }),
  offline: Type.Boolean({ description: 'Never download: entries whose files are only remote fail at once, naming what to download or import' }),
  download_timeout_seconds: Type.Integer({ minimum: 5, maximum: 600, description: 'A mirror download that receives nothing for this long fails' }),
  http_proxy: nullable<string>('string', { maxLength: 2048, pattern: '^https?://[^\\s]+$', description: 'HTTP proxy for mirror downloads; null: direct' }),
  task_expiry_minutes: Type.Integer({ minimum: 5, maximum: 43_200, description: 'Default lifetime of an install task before it expires' }),
  boot_loaders: BootLoadersSchema,
};

const LoggingFields = {
  level: Type.Enum([...LOG_LEVELS], { description: 'Log level, applied at once' }),
  event_retention_count: Type.Integer({ minimum: 100, maximum: 1_000_000, description: 'Keep at most this many events' }),
  event_retention_days: Type.Integer({ minimum: 1, maximum: 3650, description: 'Drop events older than this' }),
  audit_retention_days: Type.Integer({ minimum: 1, maximum: 3650, description: 'Drop audit log entries older than this' }),
};

export const GeneralSettingsSchema = Type.Object(GeneralFields, { additionalProperties: false });
export const InterfacesSettingsSchema = Type.Object(InterfacesFields, { additionalProperties: false });
export const NetbootSettingsSchema = Type.Object(NetbootFields, { additionalProperties: false });
export const LoggingSettingsSchema = Type.Object(LoggingFields, { additionalProperties: false });

export const GeneralSettingsPatch = patchOf(GeneralFields);
export const InterfacesSettingsPatch = patchOf(InterfacesFields);
export const NetbootSettingsPatch = patchOf(NetbootFields);
export const LoggingSettingsPatch = patchOf(LoggingFields);

export type GeneralSettings = Static<typeof GeneralSettingsSchema>;
export type InterfacesSettings = Static<typeof InterfacesSettingsSchema>;
export type NetbootSettings = Static<typeof NetbootSettingsSchema>;
export type LoggingSettings = Static<typeof LoggingSettingsSchema>;

export const SETTINGS_SECTIONS = ['general', 'interfaces', 'netboot', 'logging'] as const;
export type SettingsSectionName = (typeof SETTINGS_SECTIONS)[number];

export interface SettingsValues {
  general: GeneralSettings;
  interfaces: InterfacesSettings;
  netboot: NetbootSettings;
  logging: LoggingSettings;
}

/** Any subset of sections, each with any subset of its fields. */
export type SettingsPatch = { [K in SettingsSectionName]?: Partial<SettingsValues[K]> };

export const SECTION_SCHEMAS = {
  general: GeneralSettingsSchema,
  interfaces: InterfacesSettingsSchema,
  netboot: NetbootSettingsSchema,
  logging: LoggingSettingsSchema,
} as const;

export const SECTION_PATCH_SCHEMAS = {
  general: GeneralSettingsPatch,
  interfaces: InterfacesSettingsPatch,
  netboot: NetbootSettingsPatch,
  logging: LoggingSettingsPatch,
} as const;

/**
 * Fields whose change needs the admin role even though the sections are
 * operator-editable: the Host allowlist (DNS-rebinding defence), the URL the
 * server downloads updates from, the proxy mirror downloads go through, and how long the audit trail is kept.
 */
export const ADMIN_ONLY_FIELDS: { readonly [K in SettingsSectionName]: readonly (keyof SettingsValues[K])[] } = {
  general: ['allowed_hosts', 'update_feed_url'],
  interfaces: [],
  netboot: ['http_proxy'],
  logging: ['audit_retention_days'],
};

export function settingsDefaults(options: { logLevel: LoggingSettings['level'] }): SettingsValues {
  return {
    general: { server_name: 'bootwright', update_feed_url: null, allowed_hosts: [] },
    interfaces: { served: 'auto', server_addresses: [] },
    netboot: {
      default_action: 'menu',
      default_profile_id: null,
      menu_timeout_seconds: 10,
      record_unknown_hosts: true,
      cache_max_mb: 20_480,
      offline: false,
      download_timeout_seconds: 30,
      http_proxy: null,
      task_expiry_minutes: 1_440,
      boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'grub', groups: {} },
    },
    logging: { level: options.logLevel, event_retention_count: 20_000, event_retention_days: 30, audit_retention_days: 90 },
  };
}

function patchOf<P extends TProperties>(fields: P) {
  const optional = Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema as TSchema)]));
  return Type.Object(optional as { [K in keyof P]: ReturnType<typeof Type.Optional<P[K]>> }, { additionalProperties: false });
}

/** GET /settings/interfaces adds what Bootwright detected; PUT rejects these fields. */
export const INTERFACES_READ_ONLY = ['detected_interfaces', 'resolved_addresses'] as const;

export const InterfacesView = Type.Object({
  ...InterfacesSettingsSchema.properties,
  detected_interfaces: Type.Array(NicSchema, { description: 'Read-only: the interfaces of this machine' }),
  resolved_addresses: Type.Array(ResolvedServerAddressSchema, {
    description: 'Read-only: our address per subnet after overrides, and whether it is served',
  }),
});
export type InterfacesSettingsView = Static<typeof InterfacesView>;

/** The stored settings, exactly what PUT /settings accepts back. */
export const AllSettings = Type.Object({
  general: GeneralSettingsSchema,
  interfaces: InterfacesSettingsSchema,
  netboot: NetbootSettingsSchema,
  logging: LoggingSettingsSchema,
});

export const AllSettingsPatch = Type.Object(
  {
    general: Type.Optional(GeneralSettingsPatch),
    interfaces: Type.Optional(InterfacesSettingsPatch),
    netboot: Type.Optional(NetbootSettingsPatch),
    logging: Type.Optional(LoggingSettingsPatch),
  },
  { additionalProperties: false },
);
export type GeneralSettingsPatchData = Static<typeof GeneralSettingsPatch>;
export type InterfacesSettingsPatchData = Static<typeof InterfacesSettingsPatch>;
export type NetbootSettingsPatchData = Static<typeof NetbootSettingsPatch>;
export type LoggingSettingsPatchData = Static<typeof LoggingSettingsPatch>;
