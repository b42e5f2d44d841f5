import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { Ok, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import type { Archmap } from './archmap.js';
import { ArchmapEntrySchema, type ArchmapEntry as ArchmapEntryData, DhcpSettingsPatchSchema, DhcpSettingsSchema, MAX_ARCHMAP_ENTRIES } from './dhcp-contract.js';
import type { DhcpSettings } from './dhcp-settings.js';

/** What the routes call: the DHCP facade's settings and architecture map. */
export interface DhcpSettingsRouteOperations {
  readonly settings: Pick<DhcpSettings, 'get' | 'update'>;
  readonly archmap: Pick<Archmap, 'entries' | 'defaults' | 'replace'>;
}

/** The contract's entry with the printable-text rule on `name` (the contract imports only typebox). */
const ArchmapEntry = Type.Object(
  { ...ArchmapEntrySchema.properties, name: PrintableString({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false, $id: 'ArchmapEntry' },
);

const ArchmapView = Type.Object({ entries: Type.Array(ArchmapEntry) });
/** An entry as a PUT may give it: `http_boot_url_path` (default null) and `alternatives` (default []) optional. */
const ArchmapEntryInput = Type.Object(
  {
    ...ArchmapEntry.properties,
    http_boot_url_path: Type.Optional(ArchmapEntrySchema.properties.http_boot_url_path),
    alternatives: Type.Optional(ArchmapEntrySchema.properties.alternatives),
  },
  { additionalProperties: false },
);
const ArchmapBody = StrictObject({ entries: Type.Array(ArchmapEntryInput, { maxItems: MAX_ARCHMAP_ENTRIES }) });

function withArchmapDefaults(entry: Static<typeof ArchmapEntryInput>): ArchmapEntryData {
  return { ...entry, http_boot_url_path: entry.http_boot_url_path ?? null, alternatives: entry.alternatives ?? [] };
}

/** DHCP settings (`/services/dhcp`) and the architecture map (`/services/archmap`). */
export function dhcpSettingsRoutes(dhcp: DhcpSettingsRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/services/dhcp',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['dhcp'],
          summary: 'DHCP settings: mode per interface, subnets, ranges, options, lease time, authoritative, ping check, access mode',
          response: { 200: Ok(DhcpSettingsSchema) },
        },
      },
      async () => ({ success: true as const, data: dhcp.settings.get() }),
    );

    app.put<{ Body: Static<typeof DhcpSettingsPatchSchema> }>(
      '/services/dhcp',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['dhcp'],
          summary: 'Update DHCP settings (fields given replace the stored ones; all-or-nothing). Enabling the first interface starts the service; a running service reloads.',
          body: DhcpSettingsPatchSchema,
          response: { 200: Ok(DhcpSettingsSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await dhcp.settings.update(request.body) }),
    );

    app.get(
      '/services/archmap',
      {
        config: { access: 'viewer' },
        schema: { tags: ['dhcp'], summary: 'Architecture map: option 93 code → boot files', response: { 200: Ok(ArchmapView) } },
      },
      async () => ({ success: true as const, data: { entries: dhcp.archmap.entries() } }),
    );

    app.get(
      '/services/archmap/defaults',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['dhcp'],
          summary: 'The built-in architecture map (PUT it to /services/archmap to restore the defaults)',
          response: { 200: Ok(ArchmapView) },
        },
      },
      async () => ({ success: true as const, data: { entries: dhcp.archmap.defaults() } }),
    );

    app.put<{ Body: Static<typeof ArchmapBody> }>(
      '/services/archmap',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['dhcp'],
          summary: 'Replace the architecture map (codes unique; paths relative to the boot root; http_boot_url_path defaults to null, alternatives to [])',
          body: ArchmapBody,
          response: { 200: Ok(ArchmapView) },
        },
      },
      async (request) => ({ success: true as const, data: { entries: await dhcp.archmap.replace(request.body.entries.map(withArchmapDefaults)) } }),
    );
  };
}
