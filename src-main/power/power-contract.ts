import { Type, type Static } from 'typebox';
import { nullable } from '../core/http-kit/common-contract.js';

/*
 * The power API's contract: the TypeBox schemas and constants of
 * /api/v1/wol/*, /api/v1/bmc/* and /api/v1/hosts/{id}/{wake,power}. It
 * imports nothing but typebox and other contracts (a test checks it) so the
 * renderer can import it too (alias @contracts/power).
 *
 * Printable-text and MAC patterns are ground rules with code behind them
 * (core/printable-text.ts, core/mac.ts): the routes add them to `name`,
 * `username` and the MAC fields, as dns-routes.ts does for its comment.
 *
 * Secrets: a BMC password is write-only. The read shape (BmcConfigSchema) has
 * `has_password` and no password field, and fastify serialises responses
 * through it, so a password (or its sealed form) can never appear in a read.
 */

export const BMC_PROTOCOLS = ['ipmi', 'redfish'] as const;
export type BmcProtocol = (typeof BMC_PROTOCOLS)[number];

export const POWER_STATES = ['on', 'off', 'unknown'] as const;
export type PowerState = (typeof POWER_STATES)[number];

/** on, off (hard), cycle (off then on), reset (hard reset), soft (ACPI graceful shutdown). */
export const POWER_ACTIONS = ['on', 'off', 'cycle', 'reset', 'soft'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** What POST /hosts/{id}/power may ask: an action, or just the state. */
export const HOST_POWER_ACTIONS = [...POWER_ACTIONS, 'status'] as const;
export type PowerRequest = (typeof HOST_POWER_ACTIONS)[number];

export const BOOT_DEVICES = ['pxe', 'disk', 'cdrom', 'bios'] as const;
export type BootDevice = (typeof BOOT_DEVICES)[number];

export const BMC_PRIVILEGES = ['operator', 'administrator'] as const;
export type BmcPrivilege = (typeof BMC_PRIVILEGES)[number];

/** IPMI cipher suites Bootwright speaks (RMCP+ with HMAC-SHA1 or HMAC-SHA256); null tries 17, then 3. */
export const CIPHER_SUITES = [3, 17] as const;
export type CipherSuite = (typeof CIPHER_SUITES)[number];

/** Why talking to a BMC failed, as the API reports it (`reason`, `error_reason`). */
export const BMC_ERROR_REASONS = [
  'timeout',
  'unreachable',
  'auth_failed',
  'unsupported_cipher_suite',
  'tls',
  'protocol',
  'command_failed',
  'unsupported',
] as const;
export type BmcErrorReason = (typeof BMC_ERROR_REASONS)[number];

/** The batch operations of POST /bmc/batch/{action}. */
export const BMC_BATCH_ACTIONS = ['power-on', 'power-off', 'restart', 'status'] as const;
export type BmcBatchAction = (typeof BMC_BATCH_ACTIONS)[number];

/** Longest BMC config name and user name; longest schedule name. */
export const MAX_BMC_NAME_LENGTH = 64;
export const MAX_SCHEDULE_NAME_LENGTH = 100;

/** At most this many ids in one batch (BMC and WOL). */
export const MAX_BATCH_IDS = 500;

/** Wake-on-LAN UDP ports: 9 (discard, the default) or 7 (echo). */
export const WOL_PORTS = [9, 7] as const;
export type WolPort = (typeof WOL_PORTS)[number];

export const WOL_TRIGGERS = ['manual', 'schedule', 'batch'] as const;
export type WolTrigger = (typeof WOL_TRIGGERS)[number];

export const WOL_RESULTS = ['sent', 'failed'] as const;
export type WolResult = (typeof WOL_RESULTS)[number];

export const SCHEDULE_RESULTS = ['ok', 'partial', 'failed', 'missed'] as const;
export type ScheduleResult = (typeof SCHEDULE_RESULTS)[number];

/** Columns of the BMC CSV import; the header row names them, in any order. */
export const CSV_COLUMNS = ['name', 'address', 'port', 'protocol', 'username', 'password', 'host_mac', 'verify_tls'] as const;
export const CSV_REQUIRED_COLUMNS = ['name', 'address', 'username'] as const;

/** A union of literals (`anyOf` of `const`s), as the API document has always shown these enums. */
const literals = <T extends string | number>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.Union(values.map((value) => Type.Literal(value)), options));

/** A nullable enum: the enum must list null too, or null fails it whatever the type says. */
function nullableOf<T extends string>(values: readonly T[], options: Record<string, unknown> = {}) {
  return Type.Unsafe<T | null>({ type: ['string', 'null'], ...options, enum: [...values, null] });
}

const Timestamp = Type.String({ format: 'date-time' });

export const BmcProtocolSchema = literals(BMC_PROTOCOLS);
export const PowerStateSchema = literals(POWER_STATES);
const BatchIds = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_BATCH_IDS, uniqueItems: true });

// ---- BMC configs ----

/** A BMC config as the API shows it: everything but the sealed password, plus whether one is set. */
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
    cipher_suite: nullable<CipherSuite>('integer', { description: 'IPMI cipher suite 3 or 17; null tries 17, then 3' }),
    privilege: literals(BMC_PRIVILEGES),
    power_state: nullableOf(POWER_STATES, { description: 'Last known power state' }),
    vendor: nullable<string>('string'),
    model: nullable<string>('string'),
    last_checked_at: nullable<string>('string', { format: 'date-time' }),
    last_error: nullable<string>('string'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'BmcConfig' },
);
export type BmcConfigView = Static<typeof BmcConfigSchema>;

/** The writable fields; `name` and `username` get the printable-text pattern in the routes. */
export const BmcConfigFields = {
  name: Type.String({ minLength: 1, maxLength: MAX_BMC_NAME_LENGTH }),
  address: Type.String({ minLength: 1, maxLength: 253 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  protocol: literals(BMC_PROTOCOLS),
  username: Type.String({ minLength: 1, maxLength: MAX_BMC_NAME_LENGTH }),
  password: Type.String({ maxLength: 128, description: 'Stored encrypted; an empty string removes it' }),
  host_id: nullable<number>('integer', { minimum: 1 }),
  verify_tls: Type.Boolean(),
  cipher_suite: Type.Unsafe<CipherSuite | null>({ type: ['integer', 'null'], enum: [...CIPHER_SUITES, null] }),
  privilege: literals(BMC_PRIVILEGES),
};

/** POST /bmc/configs body: name, address and username required. */
export const BmcConfigCreateSchema = Type.Object(
  {
    name: BmcConfigFields.name,
    address: BmcConfigFields.address,
    port: Type.Optional(BmcConfigFields.port),
    protocol: Type.Optional(BmcConfigFields.protocol),
    username: BmcConfigFields.username,
    password: Type.Optional(BmcConfigFields.password),
    host_id: Type.Optional(BmcConfigFields.host_id),
    verify_tls: Type.Optional(BmcConfigFields.verify_tls),
    cipher_suite: Type.Optional(BmcConfigFields.cipher_suite),
    privilege: Type.Optional(BmcConfigFields.privilege),
  },
  { additionalProperties: false },
);
export type BmcConfigCreate = Static<typeof BmcConfigCreateSchema>;

/** PUT /bmc/configs/{id} body: any subset of the fields, at least one. */
export const BmcConfigPatchSchema = Type.Object(
  {
    name: Type.Optional(BmcConfigFields.name),
    address: Type.Optional(BmcConfigFields.address),
    port: Type.Optional(BmcConfigFields.port),
    protocol: Type.Optional(BmcConfigFields.protocol),
    username: Type.Optional(BmcConfigFields.username),
    password: Type.Optional(BmcConfigFields.password),
    host_id: Type.Optional(BmcConfigFields.host_id),
    verify_tls: Type.Optional(BmcConfigFields.verify_tls),
    cipher_suite: Type.Optional(BmcConfigFields.cipher_suite),
    privilege: Type.Optional(BmcConfigFields.privilege),
  },
  { additionalProperties: false, minProperties: 1 },
);
/** Fields a client sets (create or update); the password is plain text in, sealed before it is stored. */
export type BmcConfigInput = Static<typeof BmcConfigPatchSchema>;

export const CsvProblemSchema = Type.Object({
  line: Type.Integer({ description: '1-based line of the file (the header is line 1)' }),
  column: nullable<string>('string'),
  message: Type.String(),
});
export type CsvProblem = Static<typeof CsvProblemSchema>;

/** POST /bmc/configs/import answer. */
export const BmcImportResultSchema = Type.Object({
  imported: Type.Array(BmcConfigSchema),
  errors: Type.Array(CsvProblemSchema, { description: 'Rows not imported (only with partial=true; otherwise any problem is a 400)' }),
  rows: Type.Integer({ description: 'Data rows in the file' }),
});
export type BmcImportResult = Static<typeof BmcImportResultSchema>;

export const BmcImportQuerySchema = Type.Object(
  { partial: Type.Optional(Type.Boolean({ default: false, description: 'Import the good rows and report the bad ones' })) },
  { additionalProperties: false },
);

// ---- Probe, power, boot device, batches ----

/** POST /bmc/probe body: a BMC not (yet) stored, with its password in plain text for this call only. */
export const BmcProbeSchema = Type.Object(
  {
    address: BmcConfigFields.address,
    port: Type.Optional(BmcConfigFields.port),
    protocol: Type.Optional(BmcConfigFields.protocol),
    username: BmcConfigFields.username,
    password: Type.String({ maxLength: 128 }),
    verify_tls: Type.Optional(BmcConfigFields.verify_tls),
    cipher_suite: Type.Optional(BmcConfigFields.cipher_suite),
  },
  { additionalProperties: false },
);
export type BmcProbeInput = Static<typeof BmcProbeSchema>;

export const BmcProbeResultSchema = Type.Object({
  reachable: Type.Boolean({ description: 'The BMC answered at all' }),
  authenticated: Type.Boolean({ description: 'Logged in and read the power state' }),
  protocol: nullableOf(BMC_PROTOCOLS),
  port: Type.Integer(),
  session: nullable<string>('string', { description: 'How we talked, e.g. "IPMI v2.0 (RMCP+), cipher suite 3"' }),
  cipher_suite: nullable<number>('integer'),
  vendor: nullable<string>('string'),
  model: nullable<string>('string'),
  firmware: nullable<string>('string'),
  power_state: nullableOf(POWER_STATES),
  error: nullable<string>('string'),
  error_reason: nullableOf(BMC_ERROR_REASONS),
});
export type BmcProbeResult = Static<typeof BmcProbeResultSchema>;

/** The answer of a power action or status read: the state, and the config as stored after it. */
export const PowerOutcomeSchema = Type.Object({
  action: Type.Unsafe<PowerRequest>({ type: 'string' }),
  power_state: nullableOf(POWER_STATES),
  config: BmcConfigSchema,
});
export type PowerOutcome = Static<typeof PowerOutcomeSchema>;

export const BootDeviceSchema = Type.Object(
  {
    device: literals(BOOT_DEVICES),
    persistent: Type.Optional(Type.Boolean({ default: false, description: 'Every boot (true) or the next boot only (false, default)' })),
    efi: Type.Optional(Type.Boolean({ default: true, description: 'UEFI (true, default) or legacy BIOS boot' })),
  },
  { additionalProperties: false },
);
export type BootDeviceInput = Static<typeof BootDeviceSchema>;

export const BmcBatchParamsSchema = Type.Object({ action: literals(BMC_BATCH_ACTIONS) }, { additionalProperties: false });
export const BmcBatchSchema = Type.Object({ ids: BatchIds }, { additionalProperties: false });

export const BmcBatchItemSchema = Type.Object({
  id: Type.Integer(),
  ok: Type.Boolean(),
  power_state: nullableOf(POWER_STATES),
  error: nullable<string>('string'),
  code: nullable<string>('string'),
  reason: nullableOf(BMC_ERROR_REASONS),
});
export type BmcBatchItem = Static<typeof BmcBatchItemSchema>;

export const BmcBatchResultSchema = Type.Object({
  batch_id: Type.String({ description: 'Matches detail.batch_id of the bmc.batch.progress events' }),
  results: Type.Array(BmcBatchItemSchema),
});
export type BmcBatchResult = Static<typeof BmcBatchResultSchema>;

/** POST /hosts/{id}/power body. */
export const HostPowerSchema = Type.Object({ action: literals(HOST_POWER_ACTIONS) }, { additionalProperties: false });

// ---- Wake-on-LAN ----

export const WolInterfaceSchema = Type.Object({
  name: Type.String(),
  mac: nullable<string>('string'),
  address: Type.String({ description: 'Our IPv4 address on the interface; the WOL socket binds here' }),
  prefix: Type.Integer(),
  subnet: Type.String(),
  broadcast: Type.String({ description: 'Directed broadcast address the magic packet is sent to' }),
  served: Type.Boolean({ description: 'Bootwright serves this interface (settings → interfaces)' }),
});
export type WolInterface = Static<typeof WolInterfaceSchema>;

/** One wake attempt as the API shows it. */
export const WolHistorySchema = Type.Object(
  {
    id: Type.Integer(),
    mac: nullable<string>('string'),
    host_id: nullable<number>('integer'),
    interface: nullable<string>('string', { description: 'Interface(s) the packet left on, comma-separated' }),
    port: Type.Integer(),
    trigger: literals(WOL_TRIGGERS),
    user: Type.String(),
    result: literals(WOL_RESULTS),
    error: nullable<string>('string'),
    created_at: Timestamp,
  },
  { $id: 'WolHistoryEntry' },
);
export type WolHistoryView = Static<typeof WolHistorySchema>;

/** The filters of GET /wol/history (besides paging and `mac`). */
export const WolHistoryFilters = {
  host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  trigger: Type.Optional(literals(WOL_TRIGGERS)),
  result: Type.Optional(literals(WOL_RESULTS)),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this time' })),
};

export const WolScheduleSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    host_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    macs: Type.Union([Type.Array(Type.String()), Type.Null()]),
    cron: nullable<string>('string'),
    at: nullable<string>('string', { format: 'date-time' }),
    timezone: Type.String(),
    enabled: Type.Boolean(),
    next_run_at: nullable<string>('string', { format: 'date-time', description: 'null when no run is left (a past one-shot, disabled)' }),
    last_run_at: nullable<string>('string', { format: 'date-time' }),
    last_result: nullableOf(SCHEDULE_RESULTS),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WolSchedule' },
);
/** A scheduled wake. Exactly one of host_ids/macs and one of cron/at is set. */
export type WolSchedule = Static<typeof WolScheduleSchema>;

/** POST /wol/schedule body; `name` gets the printable-text pattern and `macs` the MAC pattern in the routes. */
export const WolScheduleInputSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_SCHEDULE_NAME_LENGTH }),
    host_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_BATCH_IDS })),
    macs: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: MAX_BATCH_IDS })),
    cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: '5 fields, or 6 with seconds first (croner syntax)' })),
    at: Type.Optional(Type.String({ format: 'date-time', description: 'One run at this time' })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone the cron is read in; default UTC' })),
  },
  { additionalProperties: false },
);
export type WolScheduleInput = Static<typeof WolScheduleInputSchema>;

/**
 * PUT /wol/schedule/{id} body: any subset of the create fields; omitted ones
 * keep their stored value. Giving `macs` replaces `host_ids` (and the other
 * way round), giving `at` replaces `cron` (and the other way round);
 * `enabled: false` pauses the schedule, `true` resumes it from now.
 */
export const WolScheduleUpdateSchema = Type.Object(
  Object.fromEntries(Object.entries(WolScheduleInputSchema.properties).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof typeof WolScheduleInputSchema.properties]: ReturnType<typeof Type.Optional<(typeof WolScheduleInputSchema.properties)[K]>>;
  },
  { additionalProperties: false },
);
export type WolScheduleUpdate = Static<typeof WolScheduleUpdateSchema>;

export const WakeFields = {
  port: Type.Optional(literals(WOL_PORTS, { description: 'UDP port: 9 (default) or 7' })),
  interface: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Send on this interface only (default: the one on the host subnet)' })),
  password: Type.Optional(Type.String({ maxLength: 32, description: 'SecureOn password: six hex bytes or four dotted decimals' })),
};
/** POST /hosts/{id}/wake body (optional: null or no body wakes with the defaults). */
export const WakeSchema = Type.Union([Type.Object(WakeFields, { additionalProperties: false }), Type.Null()]);
export type WakeInput = Static<typeof WakeSchema>;
/** POST /hosts/batch/wake body. */
export const BatchWakeSchema = Type.Object({ ids: BatchIds, ...WakeFields }, { additionalProperties: false });
export type BatchWakeInput = Static<typeof BatchWakeSchema>;

/** The outcome of one wake attempt (also one row of a batch answer). */
export const WakeResultSchema = Type.Object({
  ok: Type.Boolean(),
  host_id: nullable<number>('integer'),
  mac: nullable<string>('string'),
  interfaces: Type.Array(Type.String(), { description: 'Interfaces the magic packet left on' }),
  history: WolHistorySchema,
  error: nullable<string>('string'),
});
export type WakeResult = Static<typeof WakeResultSchema>;
