import { Type, type Static } from 'typebox';
import { DhcpSettingsPatch, DhcpSettingsSchema } from '../../dhcp/dhcp-config.js';
import { Ok, PrintableString, StrictObject } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

export const ArchmapEntrySchema = Type.Object(
  {
    code: Type.Integer({ minimum: 0, maximum: 65535, description: 'Option 93 client architecture type (IANA registry, RFC 4578)' }),
    name: PrintableString({ minLength: 1, maxLength: 64 }),
    boot_file: Type.Union([Type.String({ minLength: 1, maxLength: 127 }), Type.Null()], {
      description: 'First-stage loader for PXE (TFTP) clients, relative to the boot root; null: no boot file',
    }),
    http_boot_url_path: Type.Union([Type.String({ minLength: 1, maxLength: 127 }), Type.Null()], {
      description: 'For UEFI HTTP-boot types: file under /boot/ handed out as an http URL; null: boot_file is used',
    }),
    alternatives: Type.Array(Type.String({ minLength: 1, maxLength: 127 }), { maxItems: 16, description: 'Other builds that also work (informational)' }),
  },
  { additionalProperties: false, $id: 'ArchmapEntry' },
);

const ArchmapView = Type.Object({ entries: Type.Array(ArchmapEntrySchema) });
const ArchmapBody = StrictObject({ entries: Type.Array(ArchmapEntrySchema, { maxItems: 256 }) });

/** DHCP settings (`/services/dhcp`) and the architecture map (`/services/archmap`). */
export const dhcpSettingsRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
    async () => ({ success: true as const, data: ctx.dhcpSettings.get() }),
  );

  app.put<{ Body: Static<typeof DhcpSettingsPatch> }>(
    '/services/dhcp',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dhcp'],
        summary: 'Update DHCP settings (fields given replace the stored ones; all-or-nothing). Enabling the first interface starts the service; a running service reloads.',
        body: DhcpSettingsPatch,
        response: { 200: Ok(DhcpSettingsSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.dhcpSettings.update(request.body) }),
  );

  app.get(
    '/services/archmap',
    {
      config: { access: 'viewer' },
      schema: { tags: ['dhcp'], summary: 'Architecture map: option 93 code → boot files', response: { 200: Ok(ArchmapView) } },
    },
    async () => ({ success: true as const, data: { entries: ctx.archmap.entries() } }),
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
    async () => ({ success: true as const, data: { entries: ctx.archmap.defaults() } }),
  );

  app.put<{ Body: Static<typeof ArchmapBody> }>(
    '/services/archmap',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['dhcp'],
        summary: 'Replace the architecture map (codes unique; paths relative to the boot root)',
        body: ArchmapBody,
        response: { 200: Ok(ArchmapView) },
      },
    },
    async (request) => ({ success: true as const, data: { entries: await ctx.archmap.replace(request.body.entries) } }),
  );
};
