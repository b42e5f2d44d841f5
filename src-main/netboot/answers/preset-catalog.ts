import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from '../../core/version.js';
import { notFound } from '../../core/errors.js';
import { ANSWER_KINDS, NETBOOT_ID_PATTERN, NETBOOT_VARIABLE_PATTERN, OS_FAMILIES, type AnswerKind, type AnswerPreset, type PresetVariable } from '../netboot-contract.js';
import { foldUnionErrors, schemaErrorMessage } from '../../core/http-kit/schema-errors.js';

/** Where the shipped presets are: next to a packaged app's resources, else the repository's resources/netboot/presets. */
export function defaultPresetDir(): string {
  const resourcesPath = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  return path.join(resourcesPath ?? path.join(PROJECT_ROOT, 'resources'), 'netboot', 'presets');
}

const VariableDefinition = Type.Object(
  { description: Type.String({ minLength: 1 }), secret: Type.Optional(Type.Boolean()), required: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const VariableUse = Type.Union([
  Type.String(),
  Type.Object(
    { default: Type.String(), required: Type.Optional(Type.Boolean()), description: Type.Optional(Type.String({ minLength: 1 })) },
    { additionalProperties: false },
  ),
]);
const PresetIndexSchema = Type.Object(
  {
    schema_version: Type.Literal(1),
    variables: Type.Record(Type.String({ pattern: NETBOOT_VARIABLE_PATTERN }), VariableDefinition),
    presets: Type.Array(
      Type.Object(
        {
          id: Type.String({ pattern: NETBOOT_ID_PATTERN }),
          kind: Type.Enum([...ANSWER_KINDS]),
          name: Type.String({ minLength: 1, maxLength: 64 }),
          description: Type.String({ minLength: 1 }),
          families: Type.Array(Type.Enum([...OS_FAMILIES]), { minItems: 1 }),
          file: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$' }),
          variables: Type.Record(Type.String({ pattern: NETBOOT_VARIABLE_PATTERN }), VariableUse),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);
type PresetIndex = Static<typeof PresetIndexSchema>;

/**
 * The shipped answer-file presets (resources/netboot/presets/index.yaml and
 * one template file each), read and checked once at start-up: a broken
 * index is a packaging fault and fails the start with the file and field.
 */
export class PresetCatalog {
  private readonly presets: readonly AnswerPreset[];

  constructor(presets: readonly AnswerPreset[]) {
    this.presets = presets;
  }

  static load(dir: string = defaultPresetDir()): PresetCatalog {
    const indexFile = path.join(dir, 'index.yaml');
    const raw: unknown = parseYaml(readFileSync(indexFile, 'utf8'));
    if (!Value.Check(PresetIndexSchema, raw)) {
      const first = foldUnionErrors(Value.Errors(PresetIndexSchema, raw))[0];
      throw new Error(`${indexFile}: ${first ? `${first.instancePath || '/'} ${schemaErrorMessage(first)}` : 'invalid'}`);
    }
    return new PresetCatalog(buildPresets(raw, (file) => readFileSync(path.join(dir, file), 'utf8'), indexFile));
  }

  list(): readonly AnswerPreset[] {
    return this.presets;
  }

  get(id: string): AnswerPreset | undefined {
    return this.presets.find((preset) => preset.id === id);
  }

  require(id: string): AnswerPreset {
    const preset = this.get(id);
    if (!preset) throw notFound('answer preset', id);
    return preset;
  }

  /** The preset an install uses when its task names no template: the first one of the kind. */
  defaultFor(kind: AnswerKind): AnswerPreset {
    const preset = this.presets.find((candidate) => candidate.kind === kind);
    if (!preset) throw notFound('answer preset of kind', kind);
    return preset;
  }
}

/** The preset's variables' defaults (secret ones excluded: they are never plain variables). */
export function presetDefaults(preset: AnswerPreset): Record<string, string> {
  return Object.fromEntries(preset.variables.filter((variable) => !variable.secret).map((variable) => [variable.name, variable.default]));
}

function buildPresets(index: PresetIndex, read: (file: string) => string, indexFile: string): AnswerPreset[] {
  const seen = new Set<string>();
  return index.presets.map((entry) => {
    if (seen.has(entry.id)) throw new Error(`${indexFile}: preset id "${entry.id}" is listed twice`);
    seen.add(entry.id);
    const variables = Object.entries(entry.variables).map(([name, use]): PresetVariable => {
      const definition = index.variables[name];
      if (!definition) throw new Error(`${indexFile}: preset "${entry.id}" uses variable "${name}", which the index does not define`);
      const override = typeof use === 'string' ? { default: use } : use;
      return {
        name,
        description: override.description ?? definition.description,
        default: override.default,
        secret: definition.secret ?? false,
        required: override.required ?? definition.required ?? false,
      };
    });
    return { id: entry.id, kind: entry.kind, name: entry.name, description: entry.description, families: entry.families, content: read(entry.file), variables };
  });
}
