import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { FieldErrorSchema, Ok, OkList, StrictObject } from '../core/http-kit/schemas.js';
import {
  MAX_LOCAL_BUNDLE_CHARS,
  StoreCatalogQuerySchema,
  StoreFeedStatusSchema,
  StoreImportLocalSchema,
  StoreImportResultSchema,
  StoreImportSchema,
  StoreItemDetailSchema,
  StoreItemParamsSchema,
  StoreItemSchema,
  StoreConflictSchema,
  StoreSettingsSchema,
  type StoreImportResult,
  type StoreSettings,
} from './community-store-contract.js';
import type { CommunityStoreService } from './community-store-service.js';
import type { StoreSettingsStore } from './store-settings.js';

/**
 * The 409 of an import: the error envelope whose details are StoreConflicts
 * (with `field`/`message` like every other detail). Declared here because the
 * envelope's own details schema would drop the conflict fields.
 */
const ImportConflictEnvelope = Type.Object({
  success: Type.Literal(false),
  error: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Array(Type.Intersect([FieldErrorSchema, Type.Partial(StoreConflictSchema)]))),
  request_id: Type.Optional(Type.String()),
});

const IMPORT_LOCAL_BODY_LIMIT_BYTES = 4 * MAX_LOCAL_BUNDLE_CHARS;

const SourceQuery = StrictObject({ source: Type.Optional(Type.String({ maxLength: 32 })) });
const RefreshQuery = StrictObject({ refresh: Type.Optional(Type.Boolean({ description: 'Fetch the feeds\' indexes now' })) });

/** The audit row's detail of an import: what was asked for and what each item became. */
function importAudit(what: string, result: StoreImportResult): Record<string, string> {
  return {
    item: what,
    dry_run: String(result.dry_run),
    items: result.items.map((item) => `${item.type}/${item.store_id}:${item.action}${item.local_id === null ? '' : `#${item.local_id}`}`).join(' '),
  };
}

function userOf(request: FastifyRequest): string {
  return request.principal?.username ?? 'unknown';
}

/**
 * The store API (docs/store.md): browse the catalog, import (operators),
 * feed status, and the feed settings (admins only: a feed brings code that
 * runs on installed machines).
 */
export function communityStoreRoutes(store: Pick<CommunityStoreService, 'catalog' | 'import' | 'importLocal'>, settings: Pick<StoreSettingsStore, 'get' | 'put'>): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof StoreCatalogQuerySchema> }>(
      '/store/catalog',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['store'],
          summary: 'The catalog: shipped items, then each feed\'s (a failing feed shows its last good index or nothing; see /store/feeds)',
          querystring: StoreCatalogQuerySchema,
          response: { 200: OkList(StoreItemSchema) },
        },
      },
      async (request) => ({ success: true as const, ...(await store.catalog.list(request.query)) }),
    );

    app.get<{ Params: Static<typeof StoreItemParamsSchema>; Querystring: Static<typeof SourceQuery> }>(
      '/store/items/:type/:id',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['store'],
          summary: 'One item with its description and payload (a feed item is fetched and its digest checked)',
          params: StoreItemParamsSchema,
          querystring: SourceQuery,
          response: { 200: Ok(StoreItemDetailSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await store.catalog.detail(request.params.type, request.params.id, request.query.source) }),
    );

    app.post<{ Body: Static<typeof StoreImportSchema> }>(
      '/store/import',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['store'],
          summary: 'Import an item and what it requires, all or nothing (409 listing conflicts unless on_conflict/resolutions answer them)',
          body: StoreImportSchema,
          response: { 200: Ok(StoreImportResultSchema), 409: ImportConflictEnvelope },
        },
      },
      async (request) => {
        const data = await store.import(request.body, userOf(request));
        request.auditDetail = importAudit(`${request.body.type}/${request.body.id}`, data);
        return { success: true as const, data };
      },
    );

    app.post<{ Body: Static<typeof StoreImportLocalSchema> }>(
      '/store/import-local',
      {
        config: { access: 'operator' },
        // The file's text may be 2 MiB of characters: JSON-escaped, more bytes than the API's 1 MiB default.
        bodyLimit: IMPORT_LOCAL_BODY_LIMIT_BYTES,
        schema: {
          tags: ['store'],
          summary: 'Import an item file or bundle file (JSON or YAML text) like a catalog item',
          body: StoreImportLocalSchema,
          response: { 200: Ok(StoreImportResultSchema), 409: ImportConflictEnvelope },
        },
      },
      async (request) => {
        const data = await store.importLocal(request.body, userOf(request));
        request.auditDetail = importAudit(request.body.filename ?? 'local file', data);
        return { success: true as const, data };
      },
    );

    app.get<{ Querystring: Static<typeof RefreshQuery> }>(
      '/store/feeds',
      {
        config: { access: 'viewer' },
        schema: { tags: ['store'], summary: 'Where each source stands: builtin, then every feed (ok, stale, failed, disabled)', querystring: RefreshQuery, response: { 200: Ok(Type.Array(StoreFeedStatusSchema)) } },
      },
      async (request) => ({ success: true as const, data: await store.catalog.status(request.query.refresh === true) }),
    );

    app.get(
      '/store/settings',
      {
        config: { access: 'viewer' },
        schema: { tags: ['store'], summary: 'The feeds and their fetch timeout', response: { 200: Ok(StoreSettingsSchema) } },
      },
      async () => ({ success: true as const, data: settings.get() }),
    );

    app.put<{ Body: StoreSettings }>(
      '/store/settings',
      {
        config: { access: 'admin' },
        schema: { tags: ['store'], summary: 'Replace the feeds (admins only; each needs an Ed25519 public key or a pinned index SHA-256)', body: StoreSettingsSchema, response: { 200: Ok(StoreSettingsSchema) } },
      },
      async (request) => ({ success: true as const, data: await settings.put(request.body) }),
    );
  };
}
