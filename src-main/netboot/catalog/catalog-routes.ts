import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { paginate } from '../../core/http-kit/list-query.js';
import { ListQuery, ListQueryProperties, Ok, OkList, StrictObject } from '../../core/http-kit/schemas.js';
import {
  CatalogEntryViewSchema,
  CatalogGroupSchema,
  NETBOOT_ARCHES,
  NETBOOT_ID_PATTERN,
  OS_FAMILIES,
  OverlayFieldsSchema,
  OverlaySchema,
} from '../netboot-contract.js';
import type { NetbootCatalog } from './netboot-catalog.js';

const DistroParams = StrictObject({ distro: Type.String({ pattern: NETBOOT_ID_PATTERN, description: 'The catalog entry\'s id (debian, ubuntu…)' }) });
const CatalogListQuery = Type.Object(
  {
    ...ListQueryProperties,
    group: Type.Optional(Type.String({ pattern: NETBOOT_ID_PATTERN, description: 'Entries of this group' })),
    family: Type.Optional(Type.Enum([...OS_FAMILIES], { description: 'Entries of this OS family' })),
    arch: Type.Optional(Type.Enum([...NETBOOT_ARCHES], { description: 'Entries with a version for this architecture' })),
  },
  { additionalProperties: false },
);

/** What the routes call: the catalog as far as the API uses it. */
export type CatalogRouteOperations = Pick<NetbootCatalog, 'list' | 'entry' | 'groups' | 'overlays' | 'overlay' | 'putOverlay' | 'deleteOverlay'>;

/** The netboot catalog, its groups and the overlays (docs/netboot.md, "Catalog and overlays"). */
export function catalogRoutes(catalog: CatalogRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof CatalogListQuery> }>(
      '/netboot/catalog',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['netboot'],
          summary: 'The OS catalog with overlays applied, in boot-menu order (q matches id, name, description)',
          querystring: CatalogListQuery,
          response: { 200: OkList(CatalogEntryViewSchema) },
        },
      },
      async (request) => ({ success: true as const, ...catalog.list(request.query) }),
    );

    app.get<{ Params: Static<typeof DistroParams> }>(
      '/netboot/catalog/:distro',
      {
        config: { access: 'viewer' },
        schema: { tags: ['netboot'], summary: 'One catalog entry with its overlay applied', params: DistroParams, response: { 200: Ok(CatalogEntryViewSchema) } },
      },
      async (request) => ({ success: true as const, data: catalog.entry(request.params.distro) }),
    );

    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/netboot/groups',
      {
        config: { access: 'viewer' },
        schema: { tags: ['netboot'], summary: 'The catalog\'s groups (boot-menu sections), by order', querystring: ListQuery, response: { 200: OkList(CatalogGroupSchema) } },
      },
      async (request) => ({
        success: true as const,
        ...paginate(catalog.groups(), request.query, { sortable: ['id', 'name', 'order'], searchText: (group) => [group.id, group.name, group.description] }),
      }),
    );

    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/netboot/overlays',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['netboot'],
          summary: 'Stored overlays, with warnings for what the shipped catalog no longer has',
          querystring: ListQuery,
          response: { 200: OkList(OverlaySchema) },
        },
      },
      async (request) => ({
        success: true as const,
        ...paginate(catalog.overlays(), request.query, { sortable: ['distro', 'updated_at', 'updated_by'], defaultSort: 'distro', searchText: (overlay) => [overlay.distro, overlay.updated_by] }),
      }),
    );

    app.get<{ Params: Static<typeof DistroParams> }>(
      '/netboot/overlays/:distro',
      {
        config: { access: 'viewer' },
        schema: { tags: ['netboot'], summary: 'A distro\'s overlay (404 when it has none)', params: DistroParams, response: { 200: Ok(OverlaySchema) } },
      },
      async (request) => ({ success: true as const, data: catalog.overlay(request.params.distro) }),
    );

    app.put<{ Params: Static<typeof DistroParams>; Body: Static<typeof OverlayFieldsSchema> }>(
      '/netboot/overlays/:distro',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['netboot'],
          summary: 'Create or replace a distro\'s overlay (only the fields sent are overridden; 400 when the entry with it would be invalid)',
          params: DistroParams,
          body: OverlayFieldsSchema,
          response: { 200: Ok(OverlaySchema) },
        },
      },
      async (request) => ({ success: true as const, data: await catalog.putOverlay(request.params.distro, request.body, request.principal?.username ?? 'unknown') }),
    );

    app.delete<{ Params: Static<typeof DistroParams> }>(
      '/netboot/overlays/:distro',
      {
        config: { access: 'operator' },
        schema: { tags: ['netboot'], summary: 'Delete a distro\'s overlay: the shipped entry applies again', params: DistroParams, response: { 200: Ok(OverlaySchema) } },
      },
      async (request) => ({ success: true as const, data: await catalog.deleteOverlay(request.params.distro, request.principal?.username ?? 'unknown') }),
    );
  };
}
