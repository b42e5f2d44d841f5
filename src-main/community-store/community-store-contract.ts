import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';

/*
 * The store API (docs/store.md): a catalog of community items (answer
 * templates, scripts, baselines, profiles, netboot catalog overlays, and
 * bundles of them) shipped under resources/store/ so it works offline, plus
 * optional remote feeds whose index and items are verified before use.
 * Imports only typebox and other contracts (@contracts/community-store).
 */

export const STORE_ITEM_TYPES = ['answer-template', 'script', 'baseline', 'profile', 'overlay', 'bundle'] as const;
export type StoreItemType = (typeof STORE_ITEM_TYPES)[number];

/** How an import treats an item whose name is already taken locally. `ask` (the default) answers 409 listing them. */
export const CONFLICT_ACTIONS = ['ask', 'rename', 'skip', 'overwrite'] as const;
export type ConflictAction = (typeof CONFLICT_ACTIONS)[number];

export const STORE_ITEM_ID_PATTERN = '^[a-z0-9][a-z0-9.-]{0,63}$';
export const FEED_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,31}$';
/** The shipped catalog's source name; remote items carry their feed's name. */
export const BUILTIN_SOURCE = 'builtin';
export const MAX_LOCAL_BUNDLE_CHARS = 2 * 1024 * 1024;
export const MAX_FEEDS = 8;

export const StoreItemTypeSchema = literalUnion(STORE_ITEM_TYPES);
export const StoreItemIdSchema = Type.String({ pattern: STORE_ITEM_ID_PATTERN });

/** What is installed locally from an item (provenance), so an update can be offered. */
export const InstalledSchema = Type.Object({
  /** Local resource ids it created (a bundle creates several), keyed `<type>/<local id>`. */
  local: Type.Array(Type.Object({ type: StoreItemTypeSchema, id: Type.Integer(), name: Type.String() })),
  version: Type.String(),
  sha256: Type.String(),
  imported_at: Timestamp,
  imported_by: Type.String(),
  update_available: Type.Boolean(),
});

/** One catalog entry (the list). */
export const StoreItemSchema = Type.Object(
  {
    type: StoreItemTypeSchema,
    id: Type.String(),
    name: Type.String(),
    version: Type.String(),
    summary: Type.String(),
    tags: Type.Array(Type.String()),
    os_family: nullable<string>('string'),
    author: Type.String(),
    /** `builtin` or a feed's name. */
    source: Type.String(),
    /** SHA-256 (hex) of the item's canonical payload, checked before import. */
    sha256: Type.String(),
    installed: Type.Union([InstalledSchema, Type.Null()]),
  },
  { $id: 'StoreItem' },
);

/** One item in full (GET /store/items/{type}/{id}): the description and the payload that an import creates. */
export const StoreItemDetailSchema = Type.Intersect(
  [
    StoreItemSchema,
    Type.Object({
      description: Type.String(),
      /** What the import creates: the API body of the target type (a bundle: its items). */
      payload: Type.Unknown(),
      /** Other items an import brings along (a baseline's scripts), as `<type>/<id>`. */
      requires: Type.Array(Type.String()),
    }),
  ],
  { $id: 'StoreItemDetail' },
);

export const StoreCatalogQuerySchema = StrictObject({
  type: Type.Optional(StoreItemTypeSchema),
  source: Type.Optional(Type.String({ maxLength: 32 })),
  q: Type.Optional(Type.String({ maxLength: 128, description: 'Words matched against name, summary and tags' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Fetch the feeds' indexes now instead of using the ones fetched in the last 5 minutes. */
  refresh: Type.Optional(Type.Boolean()),
});

export const StoreItemParamsSchema = StrictObject({ type: StoreItemTypeSchema, id: StoreItemIdSchema });

/** Per-conflict answers, keyed `<type>/<store item id>`; `on_conflict` covers the ones not named. */
const Resolutions = Type.Record(Type.String({ maxLength: 160 }), literalUnion(['rename', 'skip', 'overwrite'] as const), {
  maxProperties: 256,
  additionalProperties: false,
});

export const StoreImportSchema = StrictObject({
  type: StoreItemTypeSchema,
  id: StoreItemIdSchema,
  /** Which source holds it (default: builtin, then the feeds in order). */
  source: Type.Optional(Type.String({ maxLength: 32 })),
  on_conflict: Type.Optional(literalUnion(CONFLICT_ACTIONS)),
  resolutions: Type.Optional(Resolutions),
  /** Check and report what would happen; write nothing. */
  dry_run: Type.Optional(Type.Boolean()),
});

/** POST /store/import-local: a bundle file's text (JSON or YAML, the same format as a feed item). */
export const StoreImportLocalSchema = StrictObject({
  content: Type.String({ minLength: 2, maxLength: MAX_LOCAL_BUNDLE_CHARS }),
  filename: Type.Optional(Type.String({ maxLength: 255 })),
  on_conflict: Type.Optional(literalUnion(CONFLICT_ACTIONS)),
  resolutions: Type.Optional(Resolutions),
  dry_run: Type.Optional(Type.Boolean()),
});

export const ImportActionSchema = literalUnion(['created', 'overwritten', 'renamed', 'skipped'] as const);

export const StoreImportResultSchema = Type.Object(
  {
    dry_run: Type.Boolean(),
    items: Type.Array(
      Type.Object({
        type: StoreItemTypeSchema,
        store_id: Type.String(),
        action: ImportActionSchema,
        /** Local resource written (null when skipped or on a dry run of a create). */
        local_id: nullable<number>('integer'),
        name: Type.String(),
      }),
    ),
  },
  { $id: 'StoreImportResult' },
);

/** The 409 details of an import with unresolved conflicts (`on_conflict: ask`). */
export const StoreConflictSchema = Type.Object({
  key: Type.String({ description: '`<type>/<store item id>`' }),
  type: StoreItemTypeSchema,
  name: Type.String(),
  existing_id: Type.Integer(),
});

// ---------------------------------------------------------------- feeds

/** A remote feed: an index (and items) over HTTPS, verified by an Ed25519 signature or a pinned SHA-256 of the index. */
export const StoreFeedSchema = StrictObject({
  name: Type.String({ pattern: FEED_NAME_PATTERN }),
  url: Type.String({ maxLength: 2048, description: 'https:// URL of the feed index (http:// only to a loopback address)' }),
  enabled: Type.Optional(Type.Boolean()),
  /** Ed25519 public key (SPKI PEM or base64 of the raw 32 bytes): the index carries a detached signature. */
  public_key: Type.Optional(Type.String({ maxLength: 4096 })),
  /** Or: the index's SHA-256 (hex), pinned. */
  index_sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
});

export const StoreSettingsSchema = Type.Object(
  {
    feeds: Type.Array(StoreFeedSchema, { maxItems: MAX_FEEDS }),
    timeout_seconds: Type.Integer({ minimum: 1, maximum: 120 }),
  },
  { $id: 'StoreSettings', additionalProperties: false },
);

/** Where each source stands (the catalog still lists builtin and cached items when a feed is down). */
export const StoreFeedStatusSchema = Type.Object(
  {
    name: Type.String(),
    url: Type.String(),
    state: literalUnion(['builtin', 'ok', 'stale', 'failed', 'disabled'] as const),
    items: Type.Integer(),
    fetched_at: nullable<string>('string', { format: 'date-time' }),
    error: nullable<string>('string'),
  },
  { $id: 'StoreFeedStatus' },
);

export type StoreItem = Static<typeof StoreItemSchema>;
export type StoreItemDetail = Static<typeof StoreItemDetailSchema>;
export type StoreInstalled = Static<typeof InstalledSchema>;
export type StoreCatalogQuery = Static<typeof StoreCatalogQuerySchema>;
export type StoreImport = Static<typeof StoreImportSchema>;
export type StoreImportLocal = Static<typeof StoreImportLocalSchema>;
export type StoreImportResult = Static<typeof StoreImportResultSchema>;
export type StoreConflict = Static<typeof StoreConflictSchema>;
export type StoreFeed = Static<typeof StoreFeedSchema>;
export type StoreSettings = Static<typeof StoreSettingsSchema>;
export type StoreFeedStatus = Static<typeof StoreFeedStatusSchema>;
