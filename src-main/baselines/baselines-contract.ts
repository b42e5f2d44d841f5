import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';
import { OsFamilySchema, ScriptKindSchema, ScriptVariablesSchema } from '../scripts/scripts-contract.js';

/*
 * The baselines API (docs/baselines.md): an ordered list of scripts an
 * installed machine runs after its OS is in place, who it is assigned to,
 * which one applies to a machine, the per-host runtime tokens a machine
 * fetches it with, and the results it reports back. Imports only typebox and
 * other contracts (the renderer imports it as @contracts/baselines).
 */

export const BASELINE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 ._()+-]{0,63}$';
export const MAX_BASELINE_SCRIPTS = 64;
export const MAX_ASSIGNED_TARGETS = 512;
/** Output kept per script result (the tail: the end of a log says why it failed). */
export const MAX_OUTPUT_TAIL_CHARS = 8 * 1024;
export const DEFAULT_SCRIPT_TIMEOUT_SECONDS = 600;
export const DEFAULT_TOKEN_TTL_MINUTES = 24 * 60;

/**
 * Which rule chose the baseline, strongest first: the host itself, its group,
 * one of its tags, its netboot install task, its profile, the default.
 */
export const ASSIGNMENT_RULES = ['host', 'group', 'tag', 'task', 'profile', 'default', 'none'] as const;
export type AssignmentRule = (typeof ASSIGNMENT_RULES)[number];

const Name = Type.String({ pattern: BASELINE_NAME_PATTERN, description: '1–64 characters: letters, digits, space . _ ( ) + -' });
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: MAX_ASSIGNED_TARGETS, uniqueItems: true });
const Labels = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_ASSIGNED_TARGETS, uniqueItems: true });

/** Who a baseline is assigned to. One target (a host, a group, a tag…) belongs to at most one baseline. */
export const BaselineAssignmentSchema = Type.Object(
  {
    host_ids: Ids,
    groups: Labels,
    tags: Labels,
    profile_ids: Ids,
    task_ids: Ids,
    /** The baseline for machines no other rule matches (at most one baseline is the default). */
    is_default: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** One step of a baseline: a script, its variable overrides, and what a failure does. */
export const BaselineScriptSchema = StrictObject({
  script_id: Type.Integer({ minimum: 1 }),
  /** Overrides of the script's declared variables (unknown names are refused). */
  variables: Type.Optional(ScriptVariablesSchema),
  /** Go on with the next script when this one fails (default false: stop the run). */
  continue_on_error: Type.Optional(Type.Boolean()),
  timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 * 3600 })),
});

/** A baseline step as read back: defaults filled in and the script's name and kind beside its id. */
export const BaselineScriptViewSchema = Type.Object(
  {
    position: Type.Integer({ description: '1-based run order' }),
    script_id: Type.Integer(),
    script_name: Type.String(),
    kind: ScriptKindSchema,
    variables: ScriptVariablesSchema,
    continue_on_error: Type.Boolean(),
    timeout_seconds: Type.Integer(),
  },
  { $id: 'BaselineScript' },
);

export const BaselineSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    os_family: OsFamilySchema,
    assign: BaselineAssignmentSchema,
    scripts: Type.Array(BaselineScriptViewSchema),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Baseline' },
);

export const BaselineCreateSchema = StrictObject({
  name: Name,
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  os_family: Type.Optional(OsFamilySchema),
  assign: Type.Optional(Type.Partial(BaselineAssignmentSchema, { additionalProperties: false })),
  scripts: Type.Optional(Type.Array(BaselineScriptSchema, { maxItems: MAX_BASELINE_SCRIPTS })),
});

export const BaselineUpdateSchema = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    os_family: Type.Optional(OsFamilySchema),
    /** Replaces the named lists; lists not given stay. */
    assign: Type.Optional(Type.Partial(BaselineAssignmentSchema, { additionalProperties: false })),
    scripts: Type.Optional(Type.Array(BaselineScriptSchema, { maxItems: MAX_BASELINE_SCRIPTS })),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** PUT /baselines/{id}/scripts: the whole ordered list. */
export const BaselineScriptsPutSchema = StrictObject({ scripts: Type.Array(BaselineScriptSchema, { maxItems: MAX_BASELINE_SCRIPTS }) });

/** GET /baselines/assigned: exactly one of mac or host_id; task_id adds the task rule. */
export const AssignedQuerySchema = StrictObject({
  mac: Type.Optional(Type.String({ maxLength: 32 })),
  host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  task_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** A script as the machine gets it: variables rendered, with a digest to check before running. */
export const RenderedScriptSchema = Type.Object({
  position: Type.Integer(),
  script_id: Type.Integer(),
  name: Type.String(),
  kind: ScriptKindSchema,
  version: Type.Integer(),
  content: Type.String(),
  sha256: Type.String(),
  continue_on_error: Type.Boolean(),
  timeout_seconds: Type.Integer(),
});

export const AssignedBaselineSchema = Type.Object(
  {
    baseline: Type.Union([BaselineSchema, Type.Null()]),
    rule: literalUnion(ASSIGNMENT_RULES),
    /** In words: which target matched, e.g. `group "lab"` or `no host, group, tag, task, profile or default matched`. */
    reason: Type.String(),
    host: Type.Union([Type.Object({ id: Type.Integer(), mac: Type.String(), hostname: nullable<string>('string') }), Type.Null()]),
    scripts: Type.Array(RenderedScriptSchema),
  },
  { $id: 'AssignedBaseline' },
);

// ---------------------------------------------------------------- runtime tokens

/** A per-host token: it reads that host's assigned baseline and reports its results, nothing else. */
export const BaselineTokenSchema = Type.Object(
  {
    id: Type.Integer(),
    host_id: Type.Integer(),
    task_id: nullable<number>('integer'),
    created_by: Type.String(),
    created_at: Timestamp,
    expires_at: Timestamp,
    revoked_at: nullable<string>('string', { format: 'date-time' }),
    last_used_at: nullable<string>('string', { format: 'date-time' }),
  },
  { $id: 'BaselineToken' },
);

export const BaselineTokenCreateSchema = StrictObject({
  host_id: Type.Integer({ minimum: 1 }),
  /** The install task the token belongs to (its runs show on that task's timeline). */
  task_id: Type.Optional(Type.Integer({ minimum: 1 })),
  ttl_minutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 30 * 24 * 60 })),
});

/** The answer to a token create: the secret is shown this once (only its hash is stored). */
export const BaselineTokenCreatedSchema = Type.Object({
  token_info: BaselineTokenSchema,
  token: Type.String(),
  /** The runner a Linux machine fetches and pipes to sh. */
  runner_url_sh: Type.String(),
  /** The runner a Windows machine fetches and runs with PowerShell. */
  runner_url_ps1: Type.String(),
});

// ---------------------------------------------------------------- results

export const SCRIPT_RESULT_STATUSES = ['ok', 'failed', 'skipped', 'timeout'] as const;
export const RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;

export const ScriptResultSchema = StrictObject({
  position: Type.Integer({ minimum: 1, maximum: MAX_BASELINE_SCRIPTS }),
  script_id: Type.Integer({ minimum: 1 }),
  status: literalUnion(SCRIPT_RESULT_STATUSES),
  exit_code: nullable<number>('integer'),
  duration_ms: Type.Integer({ minimum: 0 }),
  /** The end of the script's combined output (longer text is cut from the front). */
  output_tail: Type.String({ maxLength: MAX_OUTPUT_TAIL_CHARS }),
});

/** What a machine posts to the runtime results URL: one script's result (or several) of a run. */
export const ResultsReportSchema = StrictObject({
  run_id: Type.Optional(Type.Integer({ minimum: 1 })),
  results: Type.Array(ScriptResultSchema, { minItems: 0, maxItems: MAX_BASELINE_SCRIPTS }),
  /** The machine is done (the run's status is decided from its results). */
  finished: Type.Optional(Type.Boolean()),
});

export const BaselineRunSchema = Type.Object(
  {
    id: Type.Integer(),
    host_id: Type.Integer(),
    task_id: nullable<number>('integer'),
    baseline_id: nullable<number>('integer'),
    baseline_name: Type.String(),
    status: literalUnion(RUN_STATUSES),
    started_at: Timestamp,
    finished_at: nullable<string>('string', { format: 'date-time' }),
    results: Type.Array(
      Type.Object({
        position: Type.Integer(),
        script_id: Type.Integer(),
        name: Type.String(),
        status: literalUnion(SCRIPT_RESULT_STATUSES),
        exit_code: nullable<number>('integer'),
        duration_ms: Type.Integer(),
        output_tail: Type.String(),
      }),
    ),
  },
  { $id: 'BaselineRun' },
);

export type BaselineAssignment = Static<typeof BaselineAssignmentSchema>;
export type BaselineScriptInput = Static<typeof BaselineScriptSchema>;
export type BaselineScriptView = Static<typeof BaselineScriptViewSchema>;
export type Baseline = Static<typeof BaselineSchema>;
export type BaselineCreate = Static<typeof BaselineCreateSchema>;
export type BaselineUpdate = Static<typeof BaselineUpdateSchema>;
export type AssignedQuery = Static<typeof AssignedQuerySchema>;
export type RenderedScript = Static<typeof RenderedScriptSchema>;
export type AssignedBaseline = Static<typeof AssignedBaselineSchema>;
export type BaselineToken = Static<typeof BaselineTokenSchema>;
export type BaselineTokenCreated = Static<typeof BaselineTokenCreatedSchema>;
export type ScriptResult = Static<typeof ScriptResultSchema>;
export type ResultsReport = Static<typeof ResultsReportSchema>;
export type BaselineRun = Static<typeof BaselineRunSchema>;

// ---------------------------------------------------------------- hardware inventory

/** Largest inventory a machine may post (lshw -json and dmidecode of a big server fit well below). */
export const MAX_INVENTORY_BYTES = 2 * 1024 * 1024;

/** What the host page shows of an inventory: read leniently from lshw's JSON (fields it lacks are null or empty). */
export const InventorySummarySchema = Type.Object({
  vendor: nullable<string>('string'),
  product: nullable<string>('string'),
  serial: nullable<string>('string'),
  uuid: nullable<string>('string'),
  cpu: nullable<string>('string'),
  cpu_count: Type.Integer(),
  memory_bytes: nullable<number>('integer'),
  disks: Type.Array(Type.Object({ name: Type.String(), size_bytes: nullable<number>('integer'), model: nullable<string>('string'), serial: nullable<string>('string') })),
  nics: Type.Array(Type.Object({ name: Type.String(), mac: nullable<string>('string') })),
});

/** The last hardware inventory a host's baseline posted (GET /hosts/{id}/inventory). */
export const HostInventorySchema = Type.Object(
  {
    host_id: Type.Integer(),
    received_at: Timestamp,
    bytes: Type.Integer(),
    summary: InventorySummarySchema,
    /** The document as posted (a JSON object). */
    data: Type.Unknown(),
  },
  { $id: 'HostInventory' },
);

export type InventorySummary = Static<typeof InventorySummarySchema>;
export type HostInventory = Static<typeof HostInventorySchema>;
