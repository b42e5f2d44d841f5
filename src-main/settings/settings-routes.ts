import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { AppError } from '../core/errors.js';
import { roleAllows } from '../core/http-kit/access.js';
import { Ok } from '../core/http-kit/schemas.js';
import type { NetworkService } from '../network/network-service.js';
import {
  AllSettings,
  AllSettingsPatch,
  INTERFACES_READ_ONLY,
  InterfacesView,
  SECTION_PATCH_SCHEMAS,
  SECTION_SCHEMAS,
  type SettingsPatch,
  type SettingsSectionName,
} from './settings-contract.js';
import type { SettingsService } from './settings-service.js';

/** What the settings routes read: the settings sections and (for the interfaces view) the network service. */
export interface SettingsRouteDeps {
  settings: SettingsService;
  network: NetworkService;
}

const SUMMARIES: Record<SettingsSectionName, string> = {
  general: 'General settings: server name, update feed, allowed Host names',
  interfaces: 'Interface settings: served interfaces and per-subnet server addresses, plus detected interfaces (read-only)',
  netboot: 'Netboot settings: what unknown machines boot, menu timeout',
  logging: 'Logging settings: log level and event/audit retention',
};

const ADMIN_NOTE = ' Changing general.allowed_hosts, general.update_feed_url or logging.audit_retention_days needs the admin role.';

/** Settings: the four sections one by one, and all together (kept for backward compatibility). */
export const settingsRoutes = (ctx: SettingsRouteDeps): FastifyPluginAsync => async (app) => {
  app.get(
    '/settings',
    {
      config: { access: 'viewer' },
      schema: { tags: ['settings'], summary: 'All settings sections (the stored, editable values)', response: { 200: Ok(AllSettings) } },
    },
    async () => ({ success: true as const, data: ctx.settings.all() }),
  );

  app.put<{ Body: Static<typeof AllSettingsPatch> }>(
    '/settings',
    {
      config: { access: 'operator' },
      preValidation: async (request) => rejectReadOnly((request.body as { interfaces?: unknown } | undefined)?.interfaces, 'body.interfaces'),
      schema: {
        tags: ['settings'],
        summary: `Update any subset of sections and fields; all are validated before any is stored.${ADMIN_NOTE}`,
        body: AllSettingsPatch,
        response: { 200: Ok(AllSettings) },
      },
    },
    async (request) => {
      const patch = request.body as SettingsPatch;
      requireAdminFor(ctx, request, patch);
      const data = await ctx.settings.update(patch, { fieldPrefix: (section) => `body.${section}` });
      return { success: true as const, data };
    },
  );

  for (const section of ['general', 'netboot', 'logging'] as const) {
    sectionRoutes(app, ctx, section, SECTION_SCHEMAS[section], () => ctx.settings.get(section));
  }
  sectionRoutes(app, ctx, 'interfaces', InterfacesView, () => interfacesView(ctx));
};

function sectionRoutes(
  app: FastifyInstance,
  ctx: SettingsRouteDeps,
  section: SettingsSectionName,
  view: TSchema,
  read: () => unknown,
): void {
  app.get(
    `/settings/${section}`,
    { config: { access: 'viewer' }, schema: { tags: ['settings'], summary: SUMMARIES[section], response: { 200: Ok(view) } } },
    async () => ({ success: true as const, data: read() }),
  );
  app.put(
    `/settings/${section}`,
    {
      config: { access: 'operator' },
      ...(section === 'interfaces' ? { preValidation: async (request: FastifyRequest) => rejectReadOnly(request.body, 'body') } : {}),
      schema: {
        tags: ['settings'],
        summary: `Update ${section} settings (fields not sent keep their values).${ADMIN_NOTE}`,
        body: SECTION_PATCH_SCHEMAS[section],
        response: { 200: Ok(view) },
      },
    },
    async (request) => {
      const patch: SettingsPatch = { [section]: request.body as object };
      requireAdminFor(ctx, request, patch);
      await ctx.settings.update(patch, { fieldPrefix: () => 'body' });
      return { success: true as const, data: read() };
    },
  );
}

/** Reads the interfaces afresh so the page shows a NIC plugged in a second ago. */
function interfacesView(ctx: SettingsRouteDeps) {
  const detected = ctx.network.refresh();
  return { ...ctx.settings.interfaces(), detected_interfaces: detected, resolved_addresses: ctx.network.resolvedAddresses() };
}

/** A clearer 400 than "unknown field" for the fields GET reports but PUT cannot set. */
function rejectReadOnly(body: unknown, base: string): void {
  if (typeof body !== 'object' || body === null) return;
  const present = INTERFACES_READ_ONLY.filter((field) => field in body);
  if (present.length === 0) return;
  const details = present.map((field) => ({ field: `${base}.${field}`, message: 'is read-only (reported by GET); send only served and server_addresses' }));
  throw new AppError('VALIDATION_FAILED', `${details[0]!.field}: ${details[0]!.message}`, { details });
}

function requireAdminFor(ctx: SettingsRouteDeps, request: FastifyRequest, patch: SettingsPatch): void {
  const changed = ctx.settings.adminFieldsChanged(patch);
  const role = request.principal?.role;
  if (changed.length > 0 && (role === undefined || !roleAllows(role, 'admin'))) {
    throw new AppError('FORBIDDEN', `changing ${changed.join(', ')} needs the admin role; you are ${role ?? 'not logged in'}`);
  }
}
