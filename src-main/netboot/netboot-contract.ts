import { Type, type Static } from 'typebox';
import { nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';
import { MAX_TEMPLATE_CHARS } from '../templates/templates-contract.js';

/*
 * The netboot API's contract (docs/netboot.md): the OS catalog and its groups,
 * overlays, the download cache, answer-file templates with versions, install
 * tasks and the two PXE runtime endpoints. It imports nothing but typebox and
 * other contracts (a test checks it) so the renderer imports it too (alias
 * @contracts/netboot). The catalog file shipped under resources/netboot/ is
 * validated against CatalogFileSchema at start-up.
 */

// ---------------------------------------------------------------- vocabulary

/** CPU architectures, named as iPXE's `${buildarch}` (what hosts record at boot). */
export const NETBOOT_ARCHES = ['x86_64', 'arm64'] as const;
export type NetbootArch = (typeof NETBOOT_ARCHES)[number];

/** Firmware kinds a boot entry supports: legacy BIOS (iPXE `${platform}` pcbios) or UEFI (efi). */
export const FIRMWARES = ['bios', 'uefi'] as const;
export type Firmware = (typeof FIRMWARES)[number];

/** Answer-file kinds: what an installer reads to run unattended. */
export const ANSWER_KINDS = ['preseed', 'kickstart', 'autoinstall', 'autoyast', 'alpine', 'autounattend'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** Operating-system families (presets and scripts target a family). */
export const OS_FAMILIES = ['debian', 'ubuntu', 'redhat', 'suse', 'alpine', 'arch', 'windows', 'utility'] as const;
export type OsFamily = (typeof OS_FAMILIES)[number];

/**
 * How an entry boots: `linux` (kernel + initrds + command line), `wimboot`
 * (Windows PE: wimboot as the kernel, bootmgr/BCD/boot.sdi/boot.wim as
 * named initrds), `multiboot`/`efi` (a single image such as memtest86+).
 */
export const LOADERS = ['linux', 'wimboot', 'multiboot', 'efi'] as const;
export type Loader = (typeof LOADERS)[number];

/** Where an entry's file is available, best first (GET /netboot/check-files). */
export const FILE_AVAILABILITY = ['local', 'image', 'cached', 'remote', 'missing'] as const;
export type FileAvailability = (typeof FILE_AVAILABILITY)[number];

/** Install task states; `done`, `failed`, `cancelled` and `expired` are final. */
export const TASK_STATES = ['pending', 'booting', 'installing', 'done', 'failed', 'cancelled', 'expired'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const FINAL_TASK_STATES: readonly TaskState[] = ['done', 'failed', 'cancelled', 'expired'];

/** What a machine boots once its task is done: its local disk (install once) or its host profile again. */
export const AFTER_INSTALL = ['local_disk', 'host_profile'] as const;
export type AfterInstall = (typeof AFTER_INSTALL)[number];

/** Identifiers of catalog entries (distro), groups and presets: lowercase words. */
export const NETBOOT_ID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';
/** A version label of a catalog entry (`12`, `24.04`, `9`, `leap-15.6`, `latest`). */
export const VERSION_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$';
/** Template variable names (`variables.<name>`), as in profiles. */
export const NETBOOT_VARIABLE_PATTERN = '^[a-z_][a-z0-9_]{0,63}$';

const Id = Type.String({ pattern: NETBOOT_ID_PATTERN });
const VersionLabel = Type.String({ pattern: VERSION_PATTERN });
const ArchSchema = Type.Enum([...NETBOOT_ARCHES], { description: 'x86_64 or arm64 (iPXE ${buildarch})' });
const FirmwareSchema = Type.Enum([...FIRMWARES], { description: 'bios or uefi' });
const AnswerKindSchema = Type.Enum([...ANSWER_KINDS], { description: 'preseed, kickstart, autoinstall, autoyast, alpine or autounattend' });
/** A path relative to the entry's mirror base URL (or, with no mirror, to its local directory). */
const RelativeFile = Type.String({ minLength: 1, maxLength: 1024, pattern: '^(?!/)(?!.*(^|/)\\.\\.(/|$))[^\\\\\\x00-\\x1f]+$' });
/** An http(s) base URL, or null where "no mirror" is meaningful. */
const NullableMirror = (description: string) => nullable<string>('string', { minLength: 8, maxLength: 2048, pattern: '^https?://[^\\s]+$', description });

export const VariablesSchema = Type.Record(Type.String({ pattern: NETBOOT_VARIABLE_PATTERN }), Type.String({ maxLength: 4096 }), {
  maxProperties: 64,
  additionalProperties: false,
  description: 'Template variables (variables.<name>): lowercase names, string values',
});

// ---------------------------------------------------------------- catalog

/** Checksums the distro publishes for its boot files (a SHA256SUMS-style file), verified after download. */
export const ChecksumSourceSchema = StrictObject({
  file: RelativeFile,
  algorithm: Type.Enum(['sha256', 'sha512']),
  /** The prefix of each file's name inside the checksum file, relative to the checksum file's folder. */
  strip_prefix: Type.Optional(Type.String({ maxLength: 512 })),
});

/** One architecture of one version: its files relative to the mirror base (or local directory). */
export const CatalogArchSchema = StrictObject({
  arch: ArchSchema,
  firmware: Type.Array(FirmwareSchema, { minItems: 1, maxItems: 2, uniqueItems: true }),
  kernel: RelativeFile,
  initrds: Type.Array(RelativeFile, { maxItems: 16 }),
  checksums: Type.Optional(ChecksumSourceSchema),
  /** Checksums given in the catalog itself (file path → hex digest), where no published file exists. */
  sha256: Type.Optional(Type.Record(Type.String(), Type.String({ pattern: '^[0-9a-f]{64}$' }))),
});

export const CatalogVersionSchema = StrictObject({
  version: VersionLabel,
  name: Type.String({ minLength: 1, maxLength: 64, description: 'e.g. "12 (bookworm)"' }),
  /** Substituted as {{ codename }} in paths and the command line. */
  codename: Type.Optional(Type.String({ pattern: '^[a-z0-9._-]{1,32}$' })),
  default: Type.Optional(Type.Boolean()),
  /** Overrides the entry's mirror for this version (old releases move to archives). */
  mirror: Type.Optional(NullableMirror('This version\'s mirror base URL instead of the entry\'s')),
  architectures: Type.Array(CatalogArchSchema, { minItems: 1, maxItems: 8 }),
});

export const CatalogAnswerSchema = StrictObject({
  kind: AnswerKindSchema,
  /** The command-line argument that tells the installer its answer URL, e.g. `auto=true priority=critical preseed/url={{ answer_url }}`. */
  argument: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const CatalogEntrySchema = Type.Object(
  {
    distro: Id,
    name: Type.String({ minLength: 1, maxLength: 64 }),
    family: Type.Enum([...OS_FAMILIES]),
    group: Id,
    description: Type.String({ maxLength: 1024 }),
    homepage: Type.Optional(Type.String({ maxLength: 512 })),
    loader: Type.Enum([...LOADERS]),
    /** Base URL of the distro's mirror; null: the files exist only locally (boot root or an OS image). */
    mirror: NullableMirror('Base URL of the distro mirror; null: local files only'),
    /** Paths may use {{ version }}, {{ codename }} and {{ arch_alias }} (the distro's own name of the arch). */
    arch_aliases: Type.Optional(Type.Partial(Type.Record(ArchSchema, Type.String({ pattern: '^[a-z0-9_-]{1,16}$' })))),
    /** The kernel command line (Liquid, same sandbox as scripts): {{ answer_argument }}, {{ mirror }}, {{ version }}, {{ host.* }}, {{ variables.* }}. */
    cmdline: Type.String({ maxLength: 4096 }),
    answer: Type.Union([CatalogAnswerSchema, Type.Null()]),
    versions: Type.Array(CatalogVersionSchema, { minItems: 1, maxItems: 32 }),
  },
  { additionalProperties: false, $id: 'NetbootCatalogEntry' },
);

export const CatalogGroupSchema = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 64 }),
    description: Type.String({ maxLength: 512 }),
    order: Type.Integer({ minimum: 0, maximum: 1000 }),
  },
  { additionalProperties: false, $id: 'NetbootGroup' },
);

/** The shipped catalog file (resources/netboot/catalog.yaml), checked at start-up. */
export const CatalogFileSchema = StrictObject({
  schema_version: Type.Literal(1),
  groups: Type.Array(CatalogGroupSchema, { minItems: 1, maxItems: 64 }),
  entries: Type.Array(CatalogEntrySchema, { minItems: 1, maxItems: 256 }),
});

/** A catalog entry as the API shows it: the shipped entry with its overlay applied. */
export const CatalogEntryViewSchema = Type.Intersect(
  [
    CatalogEntrySchema,
    Type.Object({
      overlay: Type.Boolean({ description: 'Whether an overlay changes the shipped entry' }),
    }),
  ],
  { $id: 'NetbootCatalogEntryView' },
);

// ---------------------------------------------------------------- overlays

/** Per-distro overrides of shipped catalog fields; they survive catalog updates. Absent fields keep the shipped value. */
export const OverlayFieldsSchema = StrictObject({
  mirror: Type.Optional(NullableMirror('Mirror base URL replacing the shipped one; null: local files only')),
  cmdline: Type.Optional(Type.String({ maxLength: 4096 })),
  /** Initrds appended to every version's (e.g. firmware.cpio.gz for Debian), relative to the mirror or local dir. */
  extra_initrds: Type.Optional(Type.Array(RelativeFile, { maxItems: 8 })),
  /** Versions added, or replacing the shipped version with the same label. */
  versions: Type.Optional(Type.Array(CatalogVersionSchema, { maxItems: 32 })),
  /** Shipped versions to hide from the catalog. */
  hidden_versions: Type.Optional(Type.Array(VersionLabel, { maxItems: 32 })),
  answer: Type.Optional(Type.Union([CatalogAnswerSchema, Type.Null()])),
});

export const OverlaySchema = Type.Object(
  {
    distro: Id,
    ...OverlayFieldsSchema.properties,
    updated_at: Timestamp,
    updated_by: Type.String(),
    /** What the overlay refers to that the shipped catalog no longer has, or why it no longer applies (the shipped entry is used). */
    warnings: Type.Array(Type.String()),
  },
  { $id: 'NetbootOverlay' },
);

// ---------------------------------------------------------------- files and cache

export const FileCheckSchema = Type.Object({
  role: Type.Enum(['kernel', 'initrd']),
  path: Type.String({ description: 'Relative to the mirror base or local directory' }),
  availability: Type.Enum([...FILE_AVAILABILITY]),
  /** Where it is: a path under the boot root, an OS image id and path, or the remote URL. */
  location: Type.String(),
  size_bytes: nullable<number>('integer'),
});

export const EntryFilesCheckSchema = Type.Object(
  {
    distro: Id,
    version: VersionLabel,
    arch: ArchSchema,
    /** The worst availability of its files: what a boot needs to reach. */
    availability: Type.Enum([...FILE_AVAILABILITY]),
    files: Type.Array(FileCheckSchema),
    /** Set when the entry cannot boot now (offline and remote-only…): what to download or import. */
    problem: nullable<string>('string'),
  },
  { $id: 'NetbootFilesCheck' },
);

export const CheckFilesQuerySchema = StrictObject({
  distro: Type.Optional(Id),
  version: Type.Optional(VersionLabel),
  arch: Type.Optional(ArchSchema),
});

export const PrefetchBodySchema = StrictObject({ distro: Id, version: VersionLabel, arch: ArchSchema });

export const PrefetchJobSchema = Type.Object(
  {
    id: Type.String(),
    distro: Id,
    version: VersionLabel,
    arch: ArchSchema,
    state: Type.Enum(['running', 'done', 'failed']),
    bytes_done: Type.Integer(),
    bytes_total: nullable<number>('integer'),
    error: nullable<string>('string'),
  },
  { $id: 'NetbootPrefetchJob' },
);

export const CacheStatsSchema = Type.Object(
  {
    dir: Type.String(),
    size_bytes: Type.Integer(),
    max_bytes: Type.Integer(),
    entries: Type.Integer(),
    hits: Type.Integer(),
    misses: Type.Integer(),
    bytes_served: Type.Integer(),
    bytes_downloaded: Type.Integer(),
    evictions: Type.Integer(),
    downloads_active: Type.Integer(),
    offline: Type.Boolean(),
  },
  { $id: 'NetbootCacheStats' },
);

// ---------------------------------------------------------------- answer templates

/** A stored answer-file template: Liquid, rendered in the templates sandbox. Secret values are never returned. */
export const AnswerTemplateSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    kind: AnswerKindSchema,
    description: Type.String(),
    content: Type.String(),
    variables: VariablesSchema,
    /** Names of the secret variables (their values are encrypted at rest and never shown). */
    secret_names: Type.Array(Type.String()),
    /** The preset it was made from, if any. */
    preset: nullable<string>('string'),
    version: Type.Integer({ description: 'Number of the current version' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'NetbootAnswerTemplate' },
);

export const AnswerTemplateWriteSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    kind: Type.Optional(AnswerKindSchema),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    content: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_CHARS })),
    variables: Type.Optional(VariablesSchema),
    /** Write-only: secret variables (passwords…), stored encrypted; a null value removes one. */
    secrets: Type.Optional(
      Type.Record(Type.String({ pattern: NETBOOT_VARIABLE_PATTERN }), Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]), {
        maxProperties: 16,
        additionalProperties: false,
      }),
    ),
    /** Create only: start from this preset (content, kind and variables default to the preset's). */
    preset: Type.Optional(Id),
    comment: Type.Optional(Type.String({ maxLength: 500, description: 'Stored with the new version when the content changes' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AnswerTemplateVersionSchema = Type.Object(
  {
    id: Type.Integer(),
    template_id: Type.Integer(),
    version: Type.Integer(),
    content: Type.String(),
    author: Type.String(),
    comment: Type.String(),
    created_at: Timestamp,
    /** Unified diff from this version to the current content (GET of one version only). */
    diff_to_current: Type.Optional(Type.String()),
  },
  { $id: 'NetbootAnswerTemplateVersion' },
);

export const PresetVariableSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  default: Type.String(),
  secret: Type.Boolean(),
  required: Type.Boolean(),
});

export const AnswerPresetSchema = Type.Object(
  {
    id: Id,
    kind: AnswerKindSchema,
    name: Type.String(),
    description: Type.String(),
    families: Type.Array(Type.Enum([...OS_FAMILIES])),
    content: Type.String(),
    variables: Type.Array(PresetVariableSchema),
  },
  { $id: 'NetbootAnswerPreset' },
);

export const ValidationIssueSchema = Type.Object({
  line: nullable<number>('integer'),
  column: nullable<number>('integer'),
  severity: Type.Enum(['error', 'warning']),
  message: Type.String(),
});

export const ValidationResultSchema = Type.Object(
  {
    valid: Type.Boolean({ description: 'No issue of severity error' }),
    issues: Type.Array(ValidationIssueSchema),
  },
  { $id: 'NetbootValidationResult' },
);

export const ValidateBodySchema = StrictObject({
  kind: AnswerKindSchema,
  content: Type.String({ maxLength: MAX_TEMPLATE_CHARS }),
  variables: Type.Optional(VariablesSchema),
});

/** Preview: render for a host, a task or a bare MAC, with extra variables on top. */
export const PreviewBodySchema = StrictObject({
  host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  task_id: Type.Optional(Type.Integer({ minimum: 1 })),
  mac: Type.Optional(Type.String({ maxLength: 32 })),
  variables: Type.Optional(VariablesSchema),
});

export const PreviewSchema = Type.Object(
  {
    content: Type.String({ description: 'The rendered answer file; secret values appear masked' }),
    content_type: Type.String(),
    validation: ValidationResultSchema,
  },
  { $id: 'NetbootAnswerPreview' },
);

// ---------------------------------------------------------------- install tasks

export const TaskTimelineItemSchema = Type.Object({
  at: Timestamp,
  /** An event kind (dhcp.lease…, boot.script_served, tftp/http transfer, netboot.answer_fetched, netboot.task.*). */
  kind: Type.String(),
  state: nullable<string>('string'),
  message: Type.String(),
});

/**
 * Where a task's installer comes from (docs/netboot.md, "Installing from an
 * OS image (offline)"): `image` — kernel/initrds (and, where the installer
 * can, packages) from a ready OS image linked to the entry; `catalog` — the
 * entry's own files (boot root, download cache, mirror).
 */
export const TaskBootSourceSchema = Type.Object({
  kind: Type.Enum(['image', 'catalog']),
  image_id: nullable<number>('integer'),
  image_name: nullable<string>('string'),
  /** e.g. "kernel and initrd from OS image 3 (Rocky 9.4) at /boot/iso/rocky-9-4/; packages from the image". */
  message: Type.String(),
  /** What still needs the network, '' when nothing. */
  network: Type.String(),
  /** Why a linked image was not used (deleted, not ready, unreadable), null when none was skipped. */
  fallback: nullable<string>('string'),
});
export type TaskBootSource = Static<typeof TaskBootSourceSchema>;

export const InstallTaskSchema = Type.Object(
  {
    id: Type.Integer(),
    host_id: nullable<number>('integer'),
    mac: Type.String(),
    distro: Id,
    version: VersionLabel,
    arch: ArchSchema,
    template_id: nullable<number>('integer'),
    template_version: nullable<number>('integer'),
    variables: VariablesSchema,
    state: Type.Enum([...TASK_STATES]),
    message: Type.String(),
    after_install: Type.Enum([...AFTER_INSTALL]),
    created_at: Timestamp,
    updated_at: Timestamp,
    expires_at: Timestamp,
    started_at: nullable<string>('string', { format: 'date-time' }),
    finished_at: nullable<string>('string', { format: 'date-time' }),
    /** The answer URL with its token (operators only; absent for viewers). */
    answer_url: Type.Optional(nullable<string>('string')),
    /** Where its installer's files (and packages) come from now; absent when the entry is gone from the catalog. */
    boot_source: Type.Optional(TaskBootSourceSchema),
    timeline: Type.Array(TaskTimelineItemSchema),
  },
  { $id: 'NetbootInstallTask' },
);

export const TaskCreateSchema = StrictObject({
  host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  mac: Type.Optional(Type.String({ maxLength: 32 })),
  distro: Id,
  version: Type.Optional(VersionLabel),
  arch: Type.Optional(ArchSchema),
  template_id: Type.Optional(nullable<number>('integer', { minimum: 1 })),
  variables: Type.Optional(VariablesSchema),
  after_install: Type.Optional(Type.Enum([...AFTER_INSTALL])),
  expires_in_minutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 43_200 })),
});

export const TaskUpdateSchema = Type.Object(
  {
    /** `cancelled` ends a task; `pending` restarts a failed, cancelled or expired one (new token). */
    state: Type.Optional(Type.Enum(['cancelled', 'pending'])),
    template_id: Type.Optional(nullable<number>('integer', { minimum: 1 })),
    variables: Type.Optional(VariablesSchema),
    after_install: Type.Optional(Type.Enum([...AFTER_INSTALL])),
    expires_in_minutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 43_200 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** GET /netboot/task/by-mac/{mac}: only what the booting machine needs for its own active task. */
export const RuntimeTaskSchema = Type.Object(
  {
    task_id: Type.Integer(),
    state: Type.Enum([...TASK_STATES]),
    distro: Id,
    version: VersionLabel,
    arch: ArchSchema,
    kernel_url: Type.String(),
    initrd_urls: Type.Array(Type.String()),
    cmdline: Type.String(),
    answer_url: nullable<string>('string'),
  },
  { $id: 'NetbootRuntimeTask' },
);

/** POST /profiles/from-netboot. */
export const ProfileFromNetbootSchema = StrictObject({
  distro: Id,
  version: Type.Optional(VersionLabel),
  arch: Type.Optional(ArchSchema),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  variables: Type.Optional(VariablesSchema),
});

export type CatalogFile = Static<typeof CatalogFileSchema>;
export type CatalogEntry = Static<typeof CatalogEntrySchema>;
export type CatalogEntryView = Static<typeof CatalogEntryViewSchema>;
export type CatalogVersion = Static<typeof CatalogVersionSchema>;
export type CatalogArch = Static<typeof CatalogArchSchema>;
export type CatalogGroup = Static<typeof CatalogGroupSchema>;
export type CatalogAnswer = Static<typeof CatalogAnswerSchema>;
export type OverlayFields = Static<typeof OverlayFieldsSchema>;
export type Overlay = Static<typeof OverlaySchema>;
export type FileCheck = Static<typeof FileCheckSchema>;
export type EntryFilesCheck = Static<typeof EntryFilesCheckSchema>;
export type CheckFilesQuery = Static<typeof CheckFilesQuerySchema>;
export type PrefetchBody = Static<typeof PrefetchBodySchema>;
export type PrefetchJob = Static<typeof PrefetchJobSchema>;
export type CacheStats = Static<typeof CacheStatsSchema>;
export type AnswerTemplate = Static<typeof AnswerTemplateSchema>;
export type AnswerTemplateWrite = Static<typeof AnswerTemplateWriteSchema>;
export type AnswerTemplateVersion = Static<typeof AnswerTemplateVersionSchema>;
export type AnswerPreset = Static<typeof AnswerPresetSchema>;
export type PresetVariable = Static<typeof PresetVariableSchema>;
export type ValidationIssue = Static<typeof ValidationIssueSchema>;
export type ValidationResult = Static<typeof ValidationResultSchema>;
export type ValidateBody = Static<typeof ValidateBodySchema>;
export type PreviewBody = Static<typeof PreviewBodySchema>;
export type AnswerPreview = Static<typeof PreviewSchema>;
export type TaskTimelineItem = Static<typeof TaskTimelineItemSchema>;
export type InstallTask = Static<typeof InstallTaskSchema>;
export type TaskCreate = Static<typeof TaskCreateSchema>;
export type TaskUpdate = Static<typeof TaskUpdateSchema>;
export type RuntimeTask = Static<typeof RuntimeTaskSchema>;
export type ProfileFromNetboot = Static<typeof ProfileFromNetbootSchema>;
export type Variables = Static<typeof VariablesSchema>;
