import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { BMC_ERROR_REASONS } from '../../power/bmc-error.js';
import { BMC_PROTOCOLS, BOOT_DEVICES, POWER_STATES } from '../../power/bmc-client.js';
import { BMC_PRIVILEGES, configView } from '../../power/bmc-config-types.js';
import { BMC_BATCH_ACTIONS, type BmcBatchAction } from '../../power/bmc-service.js';
import { BODY_LIMIT_BYTES } from '../http-app.js';
import { IdParams, ListQueryProperties, Ok, OkList, PrintableString, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

/** `{"type": [T, "null"]}`: one clear validation error rather than one per anyOf branch. */
export function nullable<T>(type: 'string' | 'integer', options: Record<string, unknown> = {}) {
  // An enum must list null too, or null fails it whatever the type says.
  const enumeration = Array.isArray(options.enum) ? { enum: [...(options.enum as unknown[]), null] } : {};
  return Type.Unsafe<T | null>({ type: [type, 'null'], ...options, ...enumeration });
}

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const BmcConfigSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    address: Type.String({ description: 'IP address or host name of the BMC' }),
    port: Type.Integer({ description: 'UDP port for IPMI (623), TCP port for Redfish HTTPS (443)' }),
    protocol: literals(BMC_PROTOCOLS),
    username: Type.String(),
    has_password: Type.Boolean({ description: 'The password itself is stored encrypted and never returned' }),
    host_id: nullable<number>('integer'),
    verify_tls: Type.Boolean({ description: 'Redfish: check the certificate (false accepts self-signed ones)' }),
    cipher_suite: nullable<number>('integer', { description: 'IPMI cipher suite 3 or 17; null tries 17, then 3' }),
    privilege: literals(BMC_PRIVILEGES),
    power_state: nullable<string>('string', { enum: [...POWER_STATES], description: 'Last known power state' }),
    vendor: nullable<string>('string'),
    model: nullable<string>('string'),
    last_checked_at: nullable<string>('string', { format: 'date-time' }),
    last_error: nullable<string>('string'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'BmcConfig' },
);

const ConfigFields = {
  name: PrintableString({ minLength: 1, maxLength: 64 }),
  address: Type.String({ minLength: 1, maxLength: 253 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  protocol: literals(BMC_PROTOCOLS),
  username: PrintableString({ minLength: 1, maxLength: 64 }),
  password: Type.String({ maxLength: 128, description: 'Stored encrypted; an empty string removes it' }),
  host_id: nullable<number>('integer', { minimum: 1 }),
  verify_tls: Type.Boolean(),
  cipher_suite: nullable<3 | 17>('integer', { enum: [3, 17] }),
  privilege: literals(BMC_PRIVILEGES),
};

const CreateConfigBody = Type.Object(
  {
    name: ConfigFields.name,
    address: ConfigFields.address,
    port: Type.Optional(ConfigFields.port),
    protocol: Type.Optional(ConfigFields.protocol),
    username: ConfigFields.username,
    password: Type.Optional(ConfigFields.password),
    host_id: Type.Optional(ConfigFields.host_id),
    verify_tls: Type.Optional(ConfigFields.verify_tls),
    cipher_suite: Type.Optional(ConfigFields.cipher_suite),
    privilege: Type.Optional(ConfigFields.privilege),
  },
  { additionalProperties: false },
);
const UpdateConfigBody = Type.Object(
  Object.fromEntries(Object.entries(ConfigFields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof typeof ConfigFields]: ReturnType<typeof Type.Optional<(typeof ConfigFields)[K]>>;
  },
  { additionalProperties: false, minProperties: 1 },
);

const ConfigListQuery = Type.Object(
  {
    ...ListQueryProperties,
    protocol: Type.Optional(literals(BMC_PROTOCOLS)),
    host_id: Type.Optional(Type.Integer({ minimum: 1 })),
    power_state: Type.Optional(literals(POWER_STATES)),
  },
  { additionalProperties: false },
);

const CsvProblemSchema = Type.Object({
  line: Type.Integer({ description: '1-based line of the file (the header is line 1)' }),
  column: nullable<string>('string'),
  message: Type.String(),
});
const ImportResult = Type.Object({
  imported: Type.Array(BmcConfigSchema),
  errors: Type.Array(CsvProblemSchema, { description: 'Rows not imported (only with partial=true; otherwise any problem is a 400)' }),
  rows: Type.Integer({ description: 'Data rows in the file' }),
});
const ImportQuery = StrictObject({
  partial: Type.Optional(Type.Boolean({ default: false, description: 'Import the good rows and report the bad ones' })),
});
const ImportBody = Type.Union([
  Type.String({ description: 'The CSV file (Content-Type: text/csv)' }),
  StrictObject({ csv: Type.String({ maxLength: BODY_LIMIT_BYTES }) }),
]);

const ProbeBody = StrictObject({
  address: ConfigFields.address,
  port: Type.Optional(ConfigFields.port),
  protocol: Type.Optional(ConfigFields.protocol),
  username: ConfigFields.username,
  password: Type.String({ maxLength: 128 }),
  verify_tls: Type.Optional(ConfigFields.verify_tls),
  cipher_suite: Type.Optional(ConfigFields.cipher_suite),
});
const ProbeResultSchema = Type.Object({
  reachable: Type.Boolean({ description: 'The BMC answered at all' }),
  authenticated: Type.Boolean({ description: 'Logged in and read the power state' }),
  protocol: nullable<string>('string', { enum: [...BMC_PROTOCOLS] }),
  port: Type.Integer(),
  session: nullable<string>('string', { description: 'How we talked, e.g. "IPMI v2.0 (RMCP+), cipher suite 3"' }),
  cipher_suite: nullable<number>('integer'),
  vendor: nullable<string>('string'),
  model: nullable<string>('string'),
  firmware: nullable<string>('string'),
  power_state: nullable<string>('string', { enum: [...POWER_STATES] }),
  error: nullable<string>('string'),
  error_reason: nullable<string>('string', { enum: [...BMC_ERROR_REASONS] }),
});

export const PowerOutcomeSchema = Type.Object({
  action: Type.String(),
  power_state: nullable<string>('string', { enum: [...POWER_STATES] }),
  config: BmcConfigSchema,
});

const BootDeviceBody = StrictObject({
  device: literals(BOOT_DEVICES),
  persistent: Type.Optional(Type.Boolean({ default: false, description: 'Every boot (true) or the next boot only (false, default)' })),
  efi: Type.Optional(Type.Boolean({ default: true, description: 'UEFI (true, default) or legacy BIOS boot' })),
});

const BatchParams = StrictObject({ action: literals(BMC_BATCH_ACTIONS) });
const BatchBody = StrictObject({ ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500, uniqueItems: true }) });
const BatchResult = Type.Object({
  batch_id: Type.String({ description: 'Matches detail.batch_id of the bmc.batch.progress events' }),
  results: Type.Array(
    Type.Object({
      id: Type.Integer(),
      ok: Type.Boolean(),
      power_state: nullable<string>('string', { enum: [...POWER_STATES] }),
      error: nullable<string>('string'),
      code: nullable<string>('string'),
      reason: nullable<string>('string', { enum: [...BMC_ERROR_REASONS] }),
    }),
  ),
});

/** Who acts, for events and history. */
export function actor(request: FastifyRequest): string {
  return request.principal?.username ?? 'anonymous';
}

/** BMC configs (CRUD, CSV import), probe, status, power and boot device, batches. */
export const bmcRoutes: RoutePluginFactory = (ctx) => async (app) => {
  const bmc = ctx.power.bmc;

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
    scope.post<{ Body: Static<typeof ImportBody>; Querystring: Static<typeof ImportQuery> }>(
      '/bmc/configs/import',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['bmc'],
          summary: 'Import BMC configs from CSV (columns name,address,port,protocol,username,password,host_mac[,verify_tls])',
          description: 'Body: the file as text/csv, or JSON {"csv": "..."}; at most 1 MiB. All lines are checked first: any problem is a 400 listing them with line numbers and nothing is imported, unless partial=true.',
          querystring: ImportQuery,
          body: ImportBody,
          response: { 200: Ok(ImportResult), 201: Ok(ImportResult) },
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
        response: { 200: Ok(ProbeResultSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await bmc.probe(request.body) }),
  );

  app.post<{ Params: Static<typeof BatchParams>; Body: Static<typeof BatchBody> }>(
    '/bmc/batch/:action',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['bmc'],
        summary: 'Power on, power off, restart or read the status of several BMCs (at most 8 at a time); one result per id',
        params: BatchParams,
        body: BatchBody,
        response: { 200: Ok(BatchResult) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bmc.batch(request.params.action as BmcBatchAction, request.body.ids, actor(request)),
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

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof BootDeviceBody> }>(
    '/bmc/:id/boot-device',
    {
      config: { access: 'operator' },
      schema: { tags: ['bmc'], summary: 'Set the boot device (pxe, disk, cdrom, bios)', params: IdParams, body: BootDeviceBody, response: { 200: Ok(BmcConfigSchema) } },
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
