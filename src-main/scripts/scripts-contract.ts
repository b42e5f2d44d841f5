import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';

/*
 * The scripts API (docs/scripts.md): post-install scripts a baseline runs on
 * an installed machine. Imports only typebox and other contracts (the
 * renderer imports it as @contracts/scripts).
 */

/** What interpreter runs a script on the machine. `cloud-init` is a #cloud-config part (YAML). */
export const SCRIPT_KINDS = ['sh', 'bash', 'powershell', 'batch', 'cloud-init'] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number];

/** Which OS family a script targets (a baseline for Linux refuses a Windows-only script, and back). */
export const OS_FAMILIES = ['linux', 'windows', 'any'] as const;
export type OsFamily = (typeof OS_FAMILIES)[number];

/** The family a kind can only run on (cloud-init and shells are Linux, PowerShell may be either). */
export const KIND_FAMILY: Record<ScriptKind, OsFamily> = {
  sh: 'linux',
  bash: 'linux',
  powershell: 'any',
  batch: 'windows',
  'cloud-init': 'linux',
};

/** Largest script text (characters). Post-install scripts are small; payloads belong in files. */
export const MAX_SCRIPT_CHARS = 256 * 1024;
export const SCRIPT_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 ._()+-]{0,63}$';
/** Variables are referenced in the content as {{ name }} (Liquid, rendered in the templates sandbox). */
export const SCRIPT_VARIABLE_PATTERN = '^[a-z_][a-z0-9_]{0,63}$';
export const MAX_SCRIPT_VARIABLES = 32;

export const ScriptKindSchema = literalUnion(SCRIPT_KINDS, { description: 'sh, bash, powershell, batch or cloud-init' });
export const OsFamilySchema = literalUnion(OS_FAMILIES, { description: 'linux, windows or any' });

/** Declared variables and their defaults; a baseline may override them per script. */
export const ScriptVariablesSchema = Type.Record(Type.String({ pattern: SCRIPT_VARIABLE_PATTERN }), Type.String({ maxLength: 4096 }), {
  maxProperties: MAX_SCRIPT_VARIABLES,
  additionalProperties: false,
  description: 'Variable name → default value; the content uses them as {{ name }}',
});

export const ScriptSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    kind: ScriptKindSchema,
    os_family: OsFamilySchema,
    description: Type.String(),
    content: Type.String(),
    variables: ScriptVariablesSchema,
    /** Number of the current version (1 on create; each content change adds one). */
    version: Type.Integer(),
    /** SHA-256 (hex) of the current content: what a machine checks before running it. */
    sha256: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Script' },
);

export const ScriptFieldSchemas = {
  name: Type.String({ pattern: SCRIPT_NAME_PATTERN, description: '1–64 characters: letters, digits, space . _ ( ) + -' }),
  kind: ScriptKindSchema,
  os_family: OsFamilySchema,
  description: Type.String({ maxLength: 1024 }),
  content: Type.String({ minLength: 1, maxLength: MAX_SCRIPT_CHARS }),
  variables: ScriptVariablesSchema,
  comment: Type.String({ maxLength: 500, description: 'Stored with the new version when the content changes' }),
};

/** POST /scripts: name, kind and content required; os_family defaults to KIND_FAMILY[kind]. */
export const ScriptCreateSchema = StrictObject({
  name: ScriptFieldSchemas.name,
  kind: ScriptFieldSchemas.kind,
  content: ScriptFieldSchemas.content,
  os_family: Type.Optional(ScriptFieldSchemas.os_family),
  description: Type.Optional(ScriptFieldSchemas.description),
  variables: Type.Optional(ScriptFieldSchemas.variables),
  comment: Type.Optional(ScriptFieldSchemas.comment),
});

/** PUT /scripts/{id}: any writable field; a content change makes a new version. */
export const ScriptUpdateSchema = Type.Object(
  {
    name: Type.Optional(ScriptFieldSchemas.name),
    kind: Type.Optional(ScriptFieldSchemas.kind),
    content: Type.Optional(ScriptFieldSchemas.content),
    os_family: Type.Optional(ScriptFieldSchemas.os_family),
    description: Type.Optional(ScriptFieldSchemas.description),
    variables: Type.Optional(ScriptFieldSchemas.variables),
    comment: Type.Optional(ScriptFieldSchemas.comment),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ScriptVersionSchema = Type.Object(
  {
    id: Type.Integer(),
    script_id: Type.Integer(),
    version: Type.Integer(),
    kind: ScriptKindSchema,
    content: Type.String(),
    author: Type.String(),
    comment: Type.String(),
    created_at: Timestamp,
    /** Unified diff from this version to the current content (GET of one version only). */
    diff_to_current: Type.Optional(Type.String()),
  },
  { $id: 'ScriptVersion' },
);

export const ScriptDiffSchema = Type.Object({
  script_id: Type.Integer(),
  from_version: Type.Integer(),
  to_version: Type.Integer(),
  diff: Type.String({ description: 'Unified diff' }),
  additions: Type.Integer(),
  deletions: Type.Integer(),
});

export const ScriptRollbackSchema = StrictObject({ comment: Type.Optional(ScriptFieldSchemas.comment) });

/** One finding of the per-kind check (sh -n / bash -n, YAML parse, encoding and well-formedness). */
export const ScriptIssueSchema = Type.Object({
  severity: literalUnion(['error', 'warning'] as const),
  /** 1-based line, null when the finding is about the whole text. */
  line: nullable<number>('integer'),
  message: Type.String(),
});

export const ScriptCheckSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'No errors (warnings allowed)' }),
    /** What checked it, e.g. "sh -n (dash)", "bash -n", "yaml", "text". */
    checker: Type.String(),
    issues: Type.Array(ScriptIssueSchema),
  },
  { $id: 'ScriptCheck' },
);

/** POST /scripts/check: check a text without saving it (with the variables it declares, so undeclared ones are named). */
export const ScriptCheckBodySchema = StrictObject({
  kind: ScriptFieldSchemas.kind,
  content: ScriptFieldSchemas.content,
  variables: Type.Optional(ScriptFieldSchemas.variables),
});

export type Script = Static<typeof ScriptSchema>;
export type ScriptCreate = Static<typeof ScriptCreateSchema>;
export type ScriptUpdate = Static<typeof ScriptUpdateSchema>;
export type ScriptVersion = Static<typeof ScriptVersionSchema>;
export type ScriptDiff = Static<typeof ScriptDiffSchema>;
export type ScriptIssue = Static<typeof ScriptIssueSchema>;
export type ScriptCheck = Static<typeof ScriptCheckSchema>;
export type ScriptVariables = Static<typeof ScriptVariablesSchema>;
