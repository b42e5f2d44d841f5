import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { BODY_LIMIT_BYTES } from '../api/http-app.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject } from '../core/http-kit/schemas.js';
import { configView } from './bmc-config-types.js';
import type { BmcService } from './bmc-service.js';
import {
  BmcBatchParamsSchema,
  BmcBatchResultSchema,
  BmcBatchSchema,
  BmcConfigCreateSchema,
  BmcConfigPatchSchema,
  BmcConfigSchema,
  BmcImportQuerySchema,
  BmcImportResultSchema,
  BmcProbeResultSchema,
  BmcProbeSchema,
  BmcProtocolSchema,
  BootDeviceSchema,
  MAX_BMC_NAME_LENGTH,
  PowerOutcomeSchema,
  PowerStateSchema,
} from './power-contract.js';

/** The contract's name and username, with the printable-text rule of the ground layer (the contract imports only typebox). */
const Name = PrintableString({ minLength: 1, maxLength: MAX_BMC_NAME_LENGTH });
const Username = PrintableString({ minLength: 1, maxLength: MAX_BMC_NAME_LENGTH });
const CreateConfigBody = StrictObject({ ...BmcConfigCreateSchema.properties, name: Name, username: Username });
const UpdateConfigBody = Type.Object(
  { ...BmcConfigPatchSchema.properties, name: Type.Optional(Name), username: Type.Optional(Username) },
  { additionalProperties: false, minProperties: 1 },
);
const ProbeBody = StrictObject({ ...BmcProbeSchema.properties, username: Username });

const ConfigListQuery = Type.Object(
  {
    ...ListQueryProperties,
    protocol: Type.Optional(BmcProtocolSchema),
    host_id: Type.Optional(Type.Integer({ minimum: 1 })),
    power_state: Type.Optional(PowerStateSchema),
  },
  { additionalProperties: false },
);

/** The CSV as text/csv, or inside JSON; the body limit is the HTTP app's. */
const ImportBody = Type.Union([
  Type.String({ description: 'The CSV file (Content-Type: text/csv)' }),
  StrictObject({ csv: Type.String({ maxLength: BODY_LIMIT_BYTES }) }),
]);

/** Who acts, for events and history. */
export function actor(request: FastifyRequest): string {
  return request.principal?.username ?? 'anonymous';
}

/** BMC configs (CRUD, CSV import), probe, status, power and boot device, batches. */
export function bmcRoutes(bmc: BmcService): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof ConfigListQuery> }>(
      '/bmc/configs',
      {
        config: { access: 'viewer' },
        schema: { tags: ['bmc'], summary: 'List BMC configs', querystring: ConfigListQuery, response: { 200: OkList(BmcConfigSchema) } },
      },
      async (request) => ({ success: true as const, ...bmc.configs.list(request.query) }),
    );

    app.post<{ Body: Static<typeof CreateConfigBody> }>(
      '/bmc/configs',
      {
        config: { access: 'operator' },
        schema: { tags: ['bmc'], summary: 'Create a BMC config (409 on a duplicate name or host)', body: CreateConfigBody, response: { 201: Ok(BmcConfigSchema) } },
      },
      async (request, reply) => {
        const row = await bmc.configs.create(request.body);
        return reply.code(201).send({ success: true as const, data: configView(row) });
      },
    );

    // The CSV import takes text/csv besides JSON: its parser lives in this child scope only.
    await app.register(async (scope) => {
      scope.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
      scope.post<{ Body: Static<typeof ImportBody>; Querystring: Static<typeof BmcImportQuerySchema> }>(
        '/bmc/configs/import',
        {
          config: { access: 'operator' },
          schema: {
            tags: ['bmc'],
            summary: 'Import BMC configs from CSV (columns name,address,port,protocol,username,password,host_mac[,verify_tls])',
            description: 'Body: the file as text/csv, or JSON {"csv": "..."}; at most 1 MiB. All lines are checked first: any problem is a 400 listing them with line numbers and nothing is imported, unless partial=true.',
            querystring: BmcImportQuerySchema,
            body: ImportBody,
            response: { 200: Ok(BmcImportResultSchema), 201: Ok(BmcImportResultSchema) },
          },
        },
        async (request, reply) => {
          const text = typeof request.body === 'string' ? request.body : request.body.csv;
          const report = await bmc.configs.importCsv(text, request.query.partial ?? false);
          return reply.code(report.imported.length > 0 ? 201 : 200).send({ success: true as const, data: report });
        },
      );
    });

    app.get<{ Params: Static<typeof IdParams> }>(
      '/bmc/configs/:id',
      { config: { access: 'viewer' }, schema: { tags: ['bmc'], summary: 'Get a BMC config', params: IdParams, response: { 200: Ok(BmcConfigSchema) } } },
      async (request) => ({ success: true as const, data: configView(bmc.configs.require(request.params.id)) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateConfigBody> }>(
      '/bmc/configs/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['bmc'], summary: 'Update a BMC config (any subset of fields)', params: IdParams, body: UpdateConfigBody, response: { 200: Ok(BmcConfigSchema) } },
      },
      async (request) => ({
        success: true as const,
        data: configView(await bmc.configs.update(request.params.id, request.body)),
      }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/bmc/configs/:id',
      { config: { access: 'operator' }, schema: { tags: ['bmc'], summary: 'Delete a BMC config', params: IdParams, response: { 200: Ok(BmcConfigSchema) } } },
      async (request) => ({ success: true as const, data: configView(await bmc.configs.remove(request.params.id)) }),
    );

    app.post<{ Body: Static<typeof ProbeBody> }>(
      '/bmc/probe',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['bmc'],
          summary: 'Probe a BMC: detect the protocol if not given, log in, read vendor, model and power state',
          description: 'Always 200 for BMC trouble: `reachable`, `authenticated`, `error` and `error_reason` (timeout, unreachable, auth_failed, unsupported_cipher_suite, tls, …) say what happened.',
          body: ProbeBody,
          response: { 200: Ok(BmcProbeResultSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await bmc.probe(request.body) }),
    );

    app.post<{ Params: Static<typeof BmcBatchParamsSchema>; Body: Static<typeof BmcBatchSchema> }>(
      '/bmc/batch/:action',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['bmc'],
          summary: 'Power on, power off, restart or read the status of several BMCs (at most 8 at a time); one result per id',
          params: BmcBatchParamsSchema,
          body: BmcBatchSchema,
          response: { 200: Ok(BmcBatchResultSchema) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await bmc.batch(request.params.action, request.body.ids, actor(request)),
      }),
    );

    app.post<{ Params: Static<typeof IdParams> }>(
      '/bmc/:id/refresh',
      {
        config: { access: 'operator' },
        schema: { tags: ['bmc'], summary: 'Read vendor, model and power state from the BMC and store them', params: IdParams, response: { 200: Ok(BmcConfigSchema) } },
      },
      async (request) => ({ success: true as const, data: await bmc.refresh(request.params.id) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/bmc/:id/status',
      {
        config: { access: 'viewer' },
        schema: { tags: ['bmc'], summary: 'Read the power state from the BMC (and store it)', params: IdParams, response: { 200: Ok(PowerOutcomeSchema) } },
      },
      async (request) => ({ success: true as const, data: await bmc.status(request.params.id) }),
    );

    const actions = [
      ['power-on', 'on', 'Power on'],
      ['power-off', 'off', 'Power off (hard)'],
      ['restart', 'reset', 'Restart (hard reset; Redfish ForceRestart)'],
    ] as const;
    for (const [path, action, summary] of actions) {
      app.post<{ Params: Static<typeof IdParams> }>(
        `/bmc/:id/${path}`,
        { config: { access: 'operator' }, schema: { tags: ['bmc'], summary, params: IdParams, response: { 200: Ok(PowerOutcomeSchema) } } },
        async (request) => ({ success: true as const, data: await bmc.power(request.params.id, action, actor(request)) }),
      );
    }

    app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof BootDeviceSchema> }>(
      '/bmc/:id/boot-device',
      {
        config: { access: 'operator' },
        schema: { tags: ['bmc'], summary: 'Set the boot device (pxe, disk, cdrom, bios)', params: IdParams, body: BootDeviceSchema, response: { 200: Ok(BmcConfigSchema) } },
      },
      async (request) => ({
        success: true as const,
        data: await bmc.setBootDevice(
          request.params.id,
          { device: request.body.device, persistent: request.body.persistent ?? false, efi: request.body.efi ?? true },
          actor(request),
        ),
      }),
    );
  };
}
