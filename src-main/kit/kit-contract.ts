import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject } from '../core/http-kit/common-contract.js';

/*
 * The kit API (docs/kit.md): one versioned file holding a Bootwright's
 * configuration, exported from one machine and imported on another with a
 * dry-run diff, conflicts resolved by choice, all or nothing.
 * Imports only typebox and other contracts (@contracts/kit).
 */

export const KIT_FORMAT = 'bootwright-kit';
export const KIT_VERSION = 1;
/** An import's `content` (the file's text) at most; a kit with every section of a lab fits in far less. */
export const MAX_KIT_CHARS = 8 * 1024 * 1024;
export const MIN_PASSPHRASE = 8;
export const MAX_PASSPHRASE = 1024;

/** The sections of a kit, in the order an import writes them (what is referred to before what refers; settings last: netboot's default profile). */
export const KIT_SECTIONS = [
  'settings',
  'dns_records',
  'scripts',
  'answer_templates',
  'profiles',
  'hosts',
  'baselines',
  'dhcp_reservations',
  'access_lists',
  'bmc_configs',
  'wol_schedules',
] as const;
export type KitSection = (typeof KIT_SECTIONS)[number];

/** The settings a kit carries (never users, passwords or API tokens). */
export const KIT_SETTINGS_PARTS = ['general', 'interfaces', 'dhcp', 'dns', 'tftp', 'netboot', 'logging', 'nfs'] as const;
export type KitSettingsPart = (typeof KIT_SETTINGS_PARTS)[number];

/** How an import treats an item whose name (or key) is taken locally with other content. `ask` (the default) answers 409 listing them. */
export const KIT_CONFLICT_ACTIONS = ['ask', 'skip', 'overwrite', 'rename'] as const;
export type KitConflictAction = (typeof KIT_CONFLICT_ACTIONS)[number];

const Passphrase = Type.String({ minLength: MIN_PASSPHRASE, maxLength: MAX_PASSPHRASE, description: 'Encrypts the secrets (and with encrypt_whole the whole file); never stored or logged' });

export const KitExportSchema = StrictObject({
  passphrase: Type.Optional(Passphrase),
  /** The sections to export (default: all). */
  include: Type.Optional(Type.Array(literalUnion(KIT_SECTIONS), { minItems: 1, maxItems: KIT_SECTIONS.length, uniqueItems: true })),
  /** Encrypt the whole file under the passphrase, not only its secrets. */
  encrypt_whole: Type.Optional(Type.Boolean()),
});

/** Per-item answers, keyed `<section>/<key>` as the diff and the 409 name them; `on_conflict` covers the rest. */
const Resolutions = Type.Record(Type.String({ maxLength: 600 }), literalUnion(['skip', 'overwrite', 'rename'] as const), {
  maxProperties: 10_000,
  additionalProperties: false,
});

export const KitImportSchema = StrictObject({
  /** The kit file's text (YAML or JSON). */
  content: Type.String({ minLength: 2, maxLength: MAX_KIT_CHARS }),
  passphrase: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_PASSPHRASE })),
  /** Only these sections of the file (default: every section it holds). */
  include: Type.Optional(Type.Array(literalUnion(KIT_SECTIONS), { minItems: 1, maxItems: KIT_SECTIONS.length, uniqueItems: true })),
  dry_run: Type.Optional(Type.Boolean()),
  on_conflict: Type.Optional(literalUnion(KIT_CONFLICT_ACTIONS)),
  resolutions: Type.Optional(Resolutions),
});

export const KIT_ITEM_ACTIONS = ['created', 'updated', 'unchanged', 'conflict', 'skipped', 'renamed'] as const;
export type KitItemAction = (typeof KIT_ITEM_ACTIONS)[number];

/** One changed field of an update (secrets shown as "(secret)"). */
export const KitFieldChangeSchema = Type.Object({
  path: Type.String({ description: 'Dotted path, e.g. linux.kernel or tags' }),
  from: Type.Unknown(),
  to: Type.Unknown(),
});

export const KitItemResultSchema = Type.Object({
  /** `<section>/<key>`: what resolutions name. */
  key: Type.String(),
  section: literalUnion(KIT_SECTIONS),
  /** The item's name in the file. */
  name: Type.String(),
  action: literalUnion(KIT_ITEM_ACTIONS),
  /** The local resource overwritten, skipped for or conflicting (null for a create, and for settings). */
  existing_id: nullable<number>('integer'),
  /** The local resource written (null on a dry run and when nothing was written). */
  local_id: nullable<number>('integer'),
  /** The name it gets (renamed: the free one). */
  local_name: Type.String(),
  /** Whether a conflict may be answered with rename. */
  can_rename: Type.Boolean(),
  /** What an update (or a conflict, if overwritten) changes. */
  changes: Type.Array(KitFieldChangeSchema),
});

export const KitImportResultSchema = Type.Object(
  {
    dry_run: Type.Boolean(),
    /** Items whose action is `conflict`: the import (not a dry run) needs a resolution for each. */
    conflicts: Type.Integer(),
    items: Type.Array(KitItemResultSchema),
    warnings: Type.Array(Type.String()),
  },
  { $id: 'KitImportResult' },
);

export type KitExport = Static<typeof KitExportSchema>;
export type KitImport = Static<typeof KitImportSchema>;
export type KitFieldChange = Static<typeof KitFieldChangeSchema>;
export type KitItemResult = Static<typeof KitItemResultSchema>;
export type KitImportResult = Static<typeof KitImportResultSchema>;
