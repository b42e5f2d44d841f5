import { Type, type Static } from 'typebox';
import { nullable } from '../core/http-kit/common-contract.js';
import { GROUP_PATTERN } from '../profiles/profiles-contract.js';
import { BOOT_LOADERS, type BootLoader } from '../settings/settings-contract.js';
import { IMPORT_BODY_LIMIT_BYTES, IMPORT_MODES, ImportQuerySchema, ImportReportSchema, MAX_IMPORT_PROBLEMS, type ImportMode, type ImportProblem, type ImportReport } from '../dhcp/dhcp-contract.js';

/*
 * The hosts API's contract: the TypeBox schemas and constants of
 * /api/v1/hosts/*. It imports nothing but typebox and other contracts (a test
 * checks it) so the renderer imports it too (alias @contracts/hosts). The
 * printable description and the MAC spelling pattern (ground-layer rules in
 * code this file may not import) are added in the routes.
 */

export { GROUP_PATTERN };
/** Tags: short words people type and filter by. */
export const TAG_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$';
/** iPXE `${buildarch}` values: i386, x86_64, arm32, arm64, riscv64, loong64… */
export const ARCH_PATTERN = '^[a-z0-9_]{1,16}$';
export const MAX_HOST_TAGS = 32;
export const MAX_HOST_DESCRIPTION = 1024;

/** A machine Bootwright knows, by MAC address (docs/hosts-and-profiles.md). */
export const HostSchema = Type.Object(
  {
    id: Type.Integer(),
    mac: Type.String({ description: 'Lowercase, colon-separated; unique' }),
    hostname: nullable<string>('string'),
    ip: nullable<string>('string', { description: 'Fixed IPv4 address; a DHCP reservation follows it' }),
    profile_id: nullable<number>('integer'),
    group: nullable<string>('string'),
    tags: Type.Array(Type.String()),
    description: Type.String(),
    arch: nullable<string>('string', { description: 'iPXE ${buildarch}: set by hand or learned at boot' }),
    platform: nullable<string>('string', { description: 'iPXE ${platform} (pcbios, efi): learned at boot' }),
    enabled: Type.Boolean({ description: 'false: the machine boots from its local disk whatever its profile' }),
    boot_loader: nullable<BootLoader>('string', {
      enum: [...BOOT_LOADERS, null],
      description: "The loader this UEFI machine gets first: ipxe, grub (the signed shim → GRUB chain) or null for its group's, else its architecture's default (settings netboot.boot_loaders)",
    }),
    discovered: Type.Boolean({ description: 'Recorded when an unknown machine booted; set false to adopt it' }),
    last_boot_at: nullable<string>('string', { format: 'date-time' }),
    last_seen_ip: nullable<string>('string'),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Host' },
);

/** The writable fields but `mac` and the printable `description`, which the routes add. */
export const HostFieldSchemas = {
  hostname: nullable<string>('string', { maxLength: 253, description: 'RFC 1123 host name; stored lowercase' }),
  ip: nullable<string>('string', { maxLength: 64, description: 'IPv4 address; creates or updates the DHCP reservation' }),
  profile_id: nullable<number>('integer', { minimum: 1 }),
  group: nullable<string>('string', { pattern: GROUP_PATTERN }),
  tags: Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: MAX_HOST_TAGS }),
  arch: nullable<string>('string', { pattern: ARCH_PATTERN }),
  enabled: Type.Boolean(),
  boot_loader: nullable<BootLoader>('string', { enum: [...BOOT_LOADERS, null] }),
  discovered: Type.Boolean(),
};

/**
 * What a client sends (create: mac required; update: any subset). The routes
 * add the MAC spelling pattern to `mac` and the printable-text rule to `description`.
 */
export const HostWriteSchema = Type.Object(
  {
    mac: Type.Optional(Type.String({ description: 'Any common spelling (colons, dashes, dots, bare hex)' })),
    hostname: Type.Optional(HostFieldSchemas.hostname),
    ip: Type.Optional(HostFieldSchemas.ip),
    profile_id: Type.Optional(HostFieldSchemas.profile_id),
    group: Type.Optional(HostFieldSchemas.group),
    tags: Type.Optional(HostFieldSchemas.tags),
    description: Type.Optional(Type.String({ maxLength: MAX_HOST_DESCRIPTION, description: 'Printable text (docs/api.md)' })),
    arch: Type.Optional(HostFieldSchemas.arch),
    enabled: Type.Optional(HostFieldSchemas.enabled),
    boot_loader: Type.Optional(HostFieldSchemas.boot_loader),
    discovered: Type.Optional(HostFieldSchemas.discovered),
  },
  { additionalProperties: false, minProperties: 1 },
);

/**
 * Where a host is in its life (docs/hosts-and-profiles.md, "Lifecycle"), as
 * MAAS and FOG show it: `new` (created, never booted), `discovered`
 * (recorded when it booted unknown), `ready` (known, nothing pending),
 * `installing` (an install task is pending, booting or installing),
 * `deployed` (its last install task is done), `failed` (its last install task
 * failed or expired). Derived at read time from the host and its tasks.
 */
export const HOST_LIFECYCLES = ['new', 'discovered', 'ready', 'installing', 'deployed', 'failed'] as const;
export type HostLifecycle = (typeof HOST_LIFECYCLES)[number];

/** Where the effective boot comes from. */
export const EFFECTIVE_BOOT_SOURCES = ['host', 'group', 'global_default', 'task', 'disabled', 'access_lists'] as const;

/** What the host boots on its next network boot, and why (the boot decision, as GET /hosts/{id}/boot-config makes it, without rendering). */
export const EffectiveBootSchema = Type.Object({
  action: Type.Enum(['profile', 'menu', 'local', 'install', 'denied'], { description: 'A profile, the netboot menu, its local disk, an installer, or nothing (denied)' }),
  profile_id: nullable<number>('integer'),
  profile_name: nullable<string>('string'),
  task_id: nullable<number>('integer', { description: 'The install task deciding it' }),
  source: Type.Enum([...EFFECTIVE_BOOT_SOURCES], { description: 'host (its own profile), group (its group default), global_default (netboot settings), task (an install task), disabled, access_lists' }),
  text: Type.String({ description: 'One line for people, e.g. profile "ubuntu-autoinstall" (group "k8s" default)' }),
});
export type EffectiveBoot = Static<typeof EffectiveBootSchema>;

/** A host as the API reads it: the stored record plus what it boots next and its lifecycle state. */
export const HostViewSchema = Type.Object(
  {
    ...HostSchema.properties,
    effective_boot: Type.Union([EffectiveBootSchema, Type.Null()], { description: 'What it boots next and why; null only where no boot area runs (partial test servers)' }),
    lifecycle: Type.Enum([...HOST_LIFECYCLES], { description: 'new, discovered, ready, installing, deployed or failed' }),
  },
  { $id: 'HostView' },
);

export type Host = Static<typeof HostSchema>;
export type HostView = Static<typeof HostViewSchema>;
export type HostInput = Static<typeof HostWriteSchema>;

// ---- bulk: import and batches (docs/hosts-and-profiles.md, "Bulk operations") ----

export { IMPORT_BODY_LIMIT_BYTES, IMPORT_MODES, ImportQuerySchema, ImportReportSchema, MAX_IMPORT_PROBLEMS, type ImportMode, type ImportProblem, type ImportReport };

/** Columns of the hosts CSV, in any order; `profile` names a profile, `profile_id` gives its id; tags are `;`-separated. */
export const HOST_IMPORT_COLUMNS = ['mac', 'hostname', 'ip', 'profile_id', 'profile', 'group', 'tags', 'description', 'arch', 'enabled', 'boot_loader'] as const;
export const MAX_HOST_IMPORT_ROWS = 50_000;
/** Ids one batch request names at most. */
export const MAX_HOST_BATCH = 10_000;

/**
 * One host of a JSON import. Only the types are checked here: every rule is
 * checked per row by the import, which reports all problems with their row.
 */
export const HostImportRowSchema = Type.Object(
  {
    mac: Type.String({ maxLength: 64 }),
    hostname: Type.Optional(nullable<string>('string', { maxLength: 253 })),
    ip: Type.Optional(nullable<string>('string', { maxLength: 64 })),
    profile_id: Type.Optional(nullable<number>('integer', { minimum: 1 })),
    profile: Type.Optional(nullable<string>('string', { maxLength: 128, description: 'A profile by name (instead of profile_id)' })),
    group: Type.Optional(nullable<string>('string', { maxLength: 64 })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_HOST_TAGS })),
    description: Type.Optional(Type.String({ maxLength: MAX_HOST_DESCRIPTION })),
    arch: Type.Optional(nullable<string>('string', { maxLength: 16 })),
    enabled: Type.Optional(Type.Boolean()),
    boot_loader: Type.Optional(HostFieldSchemas.boot_loader),
  },
  { additionalProperties: false },
);
export type HostImportRow = Static<typeof HostImportRowSchema>;

export const HostImportJsonSchema = Type.Object(
  { hosts: Type.Array(HostImportRowSchema, { maxItems: MAX_HOST_IMPORT_ROWS }) },
  { additionalProperties: false },
);

const BatchIds = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_HOST_BATCH, uniqueItems: true });

export const HostBatchDeleteSchema = Type.Object({ ids: BatchIds }, { additionalProperties: false });
export type HostBatchDelete = Static<typeof HostBatchDeleteSchema>;

/** What a batch assignment sets on every host named; at least one change besides `ids`. */
export const HostBatchAssignSchema = Type.Object(
  {
    ids: BatchIds,
    profile_id: Type.Optional(HostFieldSchemas.profile_id),
    group: Type.Optional(HostFieldSchemas.group),
    tags: Type.Optional(
      Type.Object(
        {
          add: Type.Optional(Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: MAX_HOST_TAGS })),
          remove: Type.Optional(Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: MAX_HOST_TAGS })),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ),
    enabled: Type.Optional(HostFieldSchemas.enabled),
  },
  { additionalProperties: false, minProperties: 2 },
);
export type HostBatchAssign = Static<typeof HostBatchAssignSchema>;

/** The answer of a batch: the hosts changed (assign) or deleted (delete), in the order of `ids`. */
export const HostBatchResultSchema = Type.Object({ count: Type.Integer(), hosts: Type.Array(HostViewSchema) });
export type HostBatchResult = Static<typeof HostBatchResultSchema>;

// ---- boot timeline (docs/hosts-and-profiles.md, "Boot timeline") ----

export const BOOT_OUTCOMES = ['in_progress', 'booted', 'installing', 'failed', 'unknown'] as const;
export type BootOutcome = (typeof BOOT_OUTCOMES)[number];
/** Boots returned per MAC at most (newest first). */
export const MAX_TIMELINE_BOOTS = 50;

/** One thing that happened during a boot: an event of the log, summarised. */
export const BootStepSchema = Type.Object({
  at: Type.String({ format: 'date-time' }),
  kind: Type.String({ description: 'The event kind (dhcp.discover, tftp.transfer.completed, boot.script_served…)' }),
  summary: Type.String(),
  detail: Type.Optional(Type.Object({}, { additionalProperties: true, description: "The event's detail, as the event log has it" })),
});
export type BootStep = Static<typeof BootStepSchema>;

export const BootRecordSchema = Type.Object({
  started_at: Type.String({ format: 'date-time' }),
  last_at: Type.String({ format: 'date-time' }),
  outcome: Type.Enum([...BOOT_OUTCOMES]),
  steps: Type.Array(BootStepSchema),
});
export type BootRecord = Static<typeof BootRecordSchema>;

/** A machine's boots, newest first. */
export const HostTimelineSchema = Type.Object({
  mac: Type.String(),
  host_id: nullable<number>('integer'),
  boots: Type.Array(BootRecordSchema),
});
export type HostTimeline = Static<typeof HostTimelineSchema>;

/** A boot with a step in the last 10 minutes, and whose machine it is. */
export const BootingNowSchema = Type.Object({
  mac: Type.String(),
  host_id: nullable<number>('integer'),
  hostname: nullable<string>('string'),
  boot: BootRecordSchema,
});
export type BootingNow = Static<typeof BootingNowSchema>;

/** GET /hosts/summary: the dashboard's host numbers. */
export const HostSummarySchema = Type.Object({
  total: Type.Integer(),
  by_lifecycle: Type.Object(Object.fromEntries(HOST_LIFECYCLES.map((state) => [state, Type.Integer({ minimum: 0 })])) as Record<HostLifecycle, ReturnType<typeof Type.Integer>>),
  waiting_adoption: Type.Integer({ description: 'Discovered hosts not adopted yet' }),
  failed_boots_last_hour: Type.Array(BootingNowSchema, { description: 'Boots that failed in the last hour, most recent first' }),
});
export type HostSummary = Static<typeof HostSummarySchema>;

export const TimelineQuerySchema = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMELINE_BOOTS, default: 10, description: 'Boots to return, newest first' })) },
  { additionalProperties: false },
);
// ---- groups and tags (/hosts/groups)

/** One group or tag and how many hosts carry it. */
export const HostLabelCountSchema = Type.Object({
  name: Type.String({ description: 'As first written (groups and tags match case-insensitively, as the /hosts filters do)' }),
  hosts: Type.Integer({ description: 'Hosts with this group or tag' }),
});
export const HostGroupsSchema = Type.Object({
  groups: Type.Array(HostLabelCountSchema, { description: 'Every group in use, by name' }),
  tags: Type.Array(HostLabelCountSchema, { description: 'Every tag in use, by name' }),
  ungrouped: Type.Integer({ description: 'Hosts without a group' }),
  total: Type.Integer({ description: 'All hosts' }),
});
export type HostLabelCount = Static<typeof HostLabelCountSchema>;
export type HostGroups = Static<typeof HostGroupsSchema>;
