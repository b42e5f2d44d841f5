import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type { AppContext } from '../../core/app-context.js';
import { AppError } from '../../core/errors.js';
import {
  GeneralSettingsPatch,
  GeneralSettingsSchema,
  InterfacesSettingsPatch,
  InterfacesSettingsSchema,
  LoggingSettingsPatch,
  LoggingSettingsSchema,
  NetbootSettingsPatch,
  NetbootSettingsSchema,
  SECTION_PATCH_SCHEMAS,
  SECTION_SCHEMAS,
  type SettingsPatch,
  type SettingsSectionName,
} from '../../settings/settings-schemas.js';
import { roleAllows } from '../../core/http-kit/access.js';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';
import { NicSchema, ResolvedServerAddressSchema } from './interfaces.js';

/** GET /settings/interfaces adds what Bootwright detected; PUT rejects these fields. */
const INTERFACES_READ_ONLY = ['detected_interfaces', 'resolved_addresses'] as const;

const InterfacesView = Type.Object({
  ...InterfacesSettingsSchema.properties,
  detected_interfaces: Type.Array(NicSchema, { description: 'Read-only: the interfaces of this machine' }),
  resolved_addresses: Type.Array(ResolvedServerAddressSchema, {
    description: 'Read-only: our address per subnet after overrides, and whether it is served',
  }),
});

/** The stored settings, exactly what PUT /settings accepts back. */
const AllSettings = Type.Object({
  general: GeneralSettingsSchema,
  interfaces: InterfacesSettingsSchema,
  netboot: NetbootSettingsSchema,
  logging: LoggingSettingsSchema,
});

const AllSettingsPatch = StrictObject({
  general: Type.Optional(GeneralSettingsPatch),
  interfaces: Type.Optional(InterfacesSettingsPatch),
  netboot: Type.Optional(NetbootSettingsPatch),
  logging: Type.Optional(LoggingSettingsPatch),
});

const SUMMARIES: Record<SettingsSectionName, string> = {
  general: 'General settings: server name, update feed, allowed Host names',
  interfaces: 'Interface settings: served interfaces and per-subnet server addresses, plus detected interfaces (read-only)',
  netboot: 'Netboot settings: what unknown machines boot, menu timeout',
  logging: 'Logging settings: log level and event/audit retention',
};

const ADMIN_NOTE = ' Changing general.allowed_hosts, general.update_feed_url or logging.audit_retention_days needs the admin role.';

/** Settings: the four sections one by one, and all together (kept for backward compatibility). */
export const settingsRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
  ctx: AppContext,
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
function interfacesView(ctx: AppContext) {
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

function requireAdminFor(ctx: AppContext, request: FastifyRequest, patch: SettingsPatch): void {
  const changed = ctx.settings.adminFieldsChanged(patch);
  const role = request.principal?.role;
  if (changed.length > 0 && (role === undefined || !roleAllows(role, 'admin'))) {
    throw new AppError('FORBIDDEN', `changing ${changed.join(', ')} needs the admin role; you are ${role ?? 'not logged in'}`);
  }
}
