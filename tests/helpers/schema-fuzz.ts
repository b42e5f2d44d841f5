/**
 * Schema-driven request-body fuzzing: a seeded PRNG, a generator of plausible
 * values from a JSON schema (the subset the OpenAPI document uses), and
 * mutations of a valid value into hostile ones. Bodies come out as raw text,
 * so they can hold what JSON.stringify cannot: own `__proto__` keys,
 * duplicate keys, lone surrogates, 10 000-deep nesting, numbers like 1e400.
 */
import { prng } from './prng.js';

/** The JSON-schema subset the OpenAPI document of the API uses. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  default?: unknown;
}

/** The seeded generator (helpers/prng.ts, mulberry32) with the draws the fuzzer needs. */
export class Rng {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = prng(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    return this.random();
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Up to `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, count);
  }
}

/** A request body as it goes on the wire. */
export interface FuzzBody {
  /** What was done to the baseline, for failure reports. */
  label: string;
  /** undefined sends no body at all. */
  body: string | Buffer | undefined;
  /** undefined sends no Content-Type header. */
  contentType: string | undefined;
}

/**
 * Raw JSON text in place of a value or key: the generator puts a marker
 * string in the value tree and `toJsonText` splices the raw text in, so a
 * body can carry text no JavaScript value serialises to.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A key written verbatim (e.g. `__proto__`, which an object literal would not make an own key). */
export class RawKeyObject {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** Serialises a value tree that may contain RawJson values and RawKeyObjects. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof RawKeyObject) {
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
  }
  // undefined inside arrays would be lost; the generator never produces it.
  return JSON.stringify(value);
}

/** Per-field overrides: a property name → the value to use instead of a generated one. */
export type FieldHints = Record<string, (rng: Rng, unique: number) => unknown>;

export interface GeneratorOptions {
  /** `#/components/schemas/...` targets. */
  components: Record<string, JsonSchema>;
  /** Plausible values by property name (ip, mac, hostname…), for baselines that pass the route's own checks. */
  hints: FieldHints;
  /** Properties that keep a fixed safe value in every body (never mutated): e.g. a BMC address pinned to loopback. */
  pinned: Record<string, unknown>;
}

let uniqueCounter = 0;

/** A fresh number for names that must be unique. */
export function nextUnique(): number {
  uniqueCounter += 1;
  return uniqueCounter;
}

export function resolveRef(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && hops < 16; hops += 1) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`unresolved $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))];
  return [];
}

export function randomMac(rng: Rng): string {
  const bytes = [0x52, 0x54, 0x00, rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

const PATTERN_CANDIDATES = ['fuzz', 'a', 'fuzz-1', 'x1', 'abc', 'A1', '1', 'fuzz_1'];

function stringFor(schema: JsonSchema, rng: Rng, unique: number): string {
  if (schema.pattern?.includes('[0-9A-Fa-f]{2}')) return randomMac(rng);
  if (schema.format === 'date-time') return new Date(Date.UTC(2099, 0, 1) + unique * 1000).toISOString();
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 64;
  if (schema.pattern !== undefined) {
    const re = new RegExp(schema.pattern);
    for (const base of PATTERN_CANDIDATES) {
      const candidate = `${base}${unique}`;
      if (re.test(candidate) && candidate.length >= min && candidate.length <= max) return candidate;
      if (re.test(base) && base.length >= min && base.length <= max) return base;
    }
  }
  let text = `fuzz${unique}`;
  while (text.length < min) text += 'x';
  return text.slice(0, Math.max(max, min));
}

/** A plausible value for `schema`: required fields always, optional ones sometimes. */
export function generate(schema: JsonSchema, rng: Rng, options: GeneratorOptions, depth = 0): unknown {
  const s = resolveRef(schema, options.components);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const nonNull = branches.filter((branch) => !typesOf(resolveRef(branch, options.components)).every((t) => t === 'null'));
    return generate(rng.pick(nonNull.length > 0 && rng.chance(0.9) ? nonNull : branches), rng, options, depth + 1);
  }
  if (s.allOf) return generate(Object.assign({}, ...s.allOf.map((part) => resolveRef(part, options.components))), rng, options, depth + 1);
  if (s.const !== undefined) return s.const;
  if (s.enum) {
    const nonNull = s.enum.filter((value) => value !== null);
    return rng.pick(nonNull.length > 0 ? nonNull : s.enum);
  }
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types.length > 0 ? rng.pick(types) : 'null';
  const unique = nextUnique();
  switch (type) {
    case 'object':
      return generateObject(s, rng, options, depth);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? min + 2, min + 2);
      const count = depth > 6 ? min : rng.int(min, max);
      const items: unknown[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < count * 4 && items.length < count; i += 1) {
        const item = generate(s.items ?? {}, rng, options, depth + 1);
        const key = JSON.stringify(item);
        if (s.uniqueItems && seen.has(key)) continue;
        seen.add(key);
        items.push(item);
      }
      return items;
    }
    case 'string':
      return stringFor(s, rng, unique);
    case 'integer': {
      const min = s.minimum ?? 0;
      const max = Math.min(s.maximum ?? min + 100, min + 100);
      return rng.int(Math.ceil(min), Math.floor(max));
    }
    case 'number': {
      const min = s.minimum ?? 0;
      return min + rng.int(0, 10);
    }
    case 'boolean':
      return rng.chance(0.5);
    default:
      return null;
  }
}

function generateObject(s: JsonSchema, rng: Rng, options: GeneratorOptions, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(s.required ?? []);
  const properties = Object.entries(s.properties ?? {});
  for (const [name, propertySchema] of properties) {
    const mustHave = required.has(name) || (s.minProperties !== undefined && Object.keys(out).length < s.minProperties);
    if (name in options.pinned) {
      out[name] = options.pinned[name];
      continue;
    }
    if (!mustHave && !rng.chance(0.5)) continue;
    const hint = options.hints[name];
    out[name] = hint ? hint(rng, nextUnique()) : generate(propertySchema, rng, options, depth + 1);
  }
  if (s.maxProperties !== undefined) {
    for (const key of Object.keys(out).slice(s.maxProperties)) delete out[key];
  }
  if (properties.length === 0 && typeof s.additionalProperties === 'object' && rng.chance(0.5)) {
    out[`v${nextUnique()}`] = generate(s.additionalProperties, rng, options, depth + 1);
  }
  return out;
}

/** Values of every JSON type, for "wrong type" mutations. */
const WRONG_TYPES: readonly [string, unknown][] = [
  ['string', 'fuzz'],
  ['number', 17],
  ['float', 1.5],
  ['boolean', true],
  ['null', null],
  ['array', [1, 'a']],
  ['object', { a: 1 }],
  ['empty array', []],
  ['empty object', {}],
];

/** Hostile strings; lone surrogates and invalid escapes can only be written as raw JSON. */
const HOSTILE_STRINGS: readonly [string, unknown][] = [
  ['empty string', ''],
  ['whitespace', '   '],
  ['NUL', 'a\u0000b'],
  ['control characters', '\u0001\u0007\u001b[31m\r\n\t'],
  ['U+202E', 'abc\u202Etxt.exe'],
  ['lone high surrogate', new RawJson('"a\\ud800b"')],
  ['lone low surrogate', new RawJson('"\\udc00"')],
  ['reversed surrogate pair', new RawJson('"\\udc00\\ud800"')],
  ['path traversal', '../../../../etc/passwd'],
  ['encoded traversal', '..%2f..%2fetc%2fpasswd'],
  ['absolute path', '/etc/shadow'],
  ['template expression', '{{ constructor.constructor("return process")() }}'],
  ['ipxe injection', 'x\n#!ipxe\nshell'],
  ['shell metacharacters', '$(reboot);`id`|&'],
  ['unicode names', 'ﬁ𝔘ńіϲøⅾе\uFEFF'],
  ['zero width', '\u200b\u200c\u200d'],
  ['number-like', '1e308'],
  ['percent', '%00%ff'],
  ['crlf header', 'a\r\nSet-Cookie: x=1'],
  ['very long (70 KB)', 'L'.repeat(70_000)],
];

const HOSTILE_NUMBERS: readonly [string, unknown][] = [
  ['-1', -1],
  ['0', 0],
  ['-0', new RawJson('-0')],
  ['1e308', new RawJson('1e308')],
  ['1e400 (Infinity)', new RawJson('1e400')],
  ['-1e400', new RawJson('-1e400')],
  ['2^53+1', new RawJson('9007199254740993')],
  ['99999999999999999999', new RawJson('99999999999999999999')],
  ['2^31', 2147483648],
  ['2^32', 4294967296],
  ['fraction', 0.5],
  ['tiny', new RawJson('5e-324')],
  ['"NaN"', 'NaN'],
  ['"Infinity"', 'Infinity'],
  ['numeric string', '42'],
  ['1.0', new RawJson('1.0')],
];

/** `depth` nested arrays as raw text. */
export function deepArray(depth: number): RawJson {
  return new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/** `depth` nested objects as raw text. */
export function deepObject(depth: number): RawJson {
  return new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

/** One mutation of a field's value, described. */
interface FieldMutation {
  label: string;
  value: unknown;
}

/** Large values, built once: each route gets each of them once, on a random field (they are slow to send and parse). */
let heavyCache: FieldMutation[] | null = null;
function heavyMutations(): FieldMutation[] {
  heavyCache ??= [
    { label: 'huge string (1,000,000 chars)', value: new RawJson(JSON.stringify('H'.repeat(1_000_000))) },
    { label: 'huge array (100,000 zeros)', value: new RawJson(`[${new Array<string>(100_000).fill('0').join(',')}]`) },
    { label: 'huge array (20,000 strings)', value: new RawJson(JSON.stringify(Array.from({ length: 20_000 }, (_, i) => `s${i}`))) },
    { label: 'huge object (20,000 keys)', value: new RawJson(JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])))) },
    { label: 'nested arrays 10,000 deep', value: deepArray(10_000) },
    { label: 'nested objects 10,000 deep', value: deepObject(10_000) },
  ];
  return heavyCache;
}

/** Small structural hostile values. */
const NESTED_MUTATIONS: readonly FieldMutation[] = [
  { label: 'nested arrays 64 deep', value: deepArray(64) },
  { label: '__proto__ object', value: new RawKeyObject([['__proto__', { polluted: 'yes' }]]) },
  { label: 'constructor.prototype object', value: new RawKeyObject([['constructor', { prototype: { polluted: 'yes' } }]]) },
];

function fieldMutations(schema: JsonSchema, options: GeneratorOptions, rng: Rng): FieldMutation[] {
  const s = resolveRef(schema, options.components);
  const out: FieldMutation[] = WRONG_TYPES.map(([label, value]) => ({ label: `wrong type: ${label}`, value }));
  out.push(...HOSTILE_STRINGS.map(([label, value]) => ({ label: `string: ${label}`, value })));
  out.push(...HOSTILE_NUMBERS.map(([label, value]) => ({ label: `number: ${label}`, value })));
  if (s.maxLength !== undefined) out.push({ label: `maxLength+1 (${s.maxLength + 1})`, value: 'm'.repeat(s.maxLength + 1) });
  if (s.minimum !== undefined) out.push({ label: `minimum-1`, value: s.minimum - 1 });
  if (s.maximum !== undefined) out.push({ label: `maximum+1`, value: s.maximum + 1 });
  if (s.maxItems !== undefined) out.push({ label: `maxItems+1`, value: new Array<unknown>(s.maxItems + 1).fill(generate(s.items ?? {}, rng, options, 5)) });
  out.push(...NESTED_MUTATIONS);
  return out;
}

/** A path in the value tree, e.g. ['linux', 'kernel'] or ['entries', 0, 'name']. */
type ValuePath = readonly (string | number)[];

/** Every object- or array-valued position in `value` with its path (the root included). */
function containers(value: unknown, path: ValuePath = [], out: { path: ValuePath; value: unknown }[] = []): { path: ValuePath; value: unknown }[] {
  if (value === null || typeof value !== 'object' || value instanceof RawJson || value instanceof RawKeyObject) return out;
  out.push({ path, value });
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, item] of entries) containers(item, [...path, key], out);
  return out;
}

/** Leaf and inner field paths of `value` (objects' properties, arrays' items). */
function fieldPaths(value: unknown): ValuePath[] {
  const out: ValuePath[] = [];
  for (const container of containers(value)) {
    const keys: (string | number)[] = Array.isArray(container.value) ? container.value.map((_, index) => index) : Object.keys(container.value as object);
    for (const key of keys) out.push([...container.path, key]);
  }
  return out;
}

/** A deep copy of `value` with the node at `path` replaced by `replacement` (or removed when `remove`). */
function replaceAt(value: unknown, path: ValuePath, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(head as number, 1);
    else copy[head as number] = replaceAt(copy[head as number], rest, replacement, remove);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[head as string];
  else copy[head as string] = replaceAt(copy[head as string], rest, replacement, remove);
  return copy;
}

/** The node at `path` with its own key list rewritten into a RawKeyObject with `extra` prepended. */
function withRawKeys(value: unknown, path: ValuePath, extra: readonly (readonly [string, unknown])[]): unknown {
  let node: unknown = value;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return value;
  return replaceAt(value, path, new RawKeyObject([...extra, ...Object.entries(node)]));
}

/** The schema that describes the node at `path` of a value generated from `schema`, when it can be found. */
function schemaAt(schema: JsonSchema, path: ValuePath, components: Record<string, JsonSchema>): JsonSchema {
  let current = resolveRef(schema, components);
  for (const key of path) {
    const branches = current.anyOf ?? current.oneOf;
    if (branches) {
      const match = branches.map((b) => resolveRef(b, components)).find((b) => (typeof key === 'number' ? b.items : b.properties?.[key]));
      if (match) current = match;
    }
    if (typeof key === 'number') current = resolveRef(current.items ?? {}, components);
    else current = resolveRef(current.properties?.[key] ?? (typeof current.additionalProperties === 'object' ? current.additionalProperties : {}), components);
  }
  return current;
}

const JSON_TYPE = 'application/json';

/** Bodies that are broken before any schema sees them. */
export function rawBodies(baselineText: string): FuzzBody[] {
  return [
    { label: 'empty body, JSON content-type', body: '', contentType: JSON_TYPE },
    { label: 'no body, no content-type', body: undefined, contentType: undefined },
    { label: 'whitespace body', body: ' \n\t ', contentType: JSON_TYPE },
    { label: 'non-JSON text', body: 'hello, world', contentType: JSON_TYPE },
    { label: 'truncated JSON', body: baselineText.slice(0, Math.max(1, Math.floor(baselineText.length / 2))), contentType: JSON_TYPE },
    { label: 'JSON then garbage', body: `${baselineText} trailing`, contentType: JSON_TYPE },
    { label: 'two JSON values', body: `${baselineText}${baselineText}`, contentType: JSON_TYPE },
    { label: 'UTF-8 BOM before JSON', body: `\uFEFF${baselineText}`, contentType: JSON_TYPE },
    { label: 'invalid UTF-8 bytes', body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]), contentType: JSON_TYPE },
    { label: 'NUL bytes', body: Buffer.from([0, 0, 0, 0]), contentType: JSON_TYPE },
    { label: 'text/plain content-type', body: baselineText, contentType: 'text/plain' },
    { label: 'form content-type', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { label: 'multipart content-type', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', contentType: 'multipart/form-data; boundary=x' },
    { label: 'JSON with charset=latin1', body: baselineText, contentType: 'application/json; charset=iso-8859-1' },
    { label: 'JSON body, no content-type', body: Buffer.from(baselineText), contentType: undefined },
    { label: 'top-level null', body: 'null', contentType: JSON_TYPE },
    { label: 'top-level array', body: '[]', contentType: JSON_TYPE },
    { label: 'top-level string', body: '"x"', contentType: JSON_TYPE },
    { label: 'top-level number', body: '1e400', contentType: JSON_TYPE },
    { label: 'top-level __proto__', body: '{"__proto__":{"polluted":"yes"}}', contentType: JSON_TYPE },
    { label: 'top-level constructor.prototype', body: '{"constructor":{"prototype":{"polluted":"yes"}}}', contentType: JSON_TYPE },
    { label: 'arrays 10,000 deep', body: deepArray(10_000).text, contentType: JSON_TYPE },
    { label: 'objects 10,000 deep', body: deepObject(10_000).text, contentType: JSON_TYPE },
    { label: 'arrays 100,000 deep', body: deepArray(100_000).text, contentType: JSON_TYPE },
    { label: 'oversize body (1 MiB + 1 KiB)', body: `{"x":"${'O'.repeat(1024 * 1024 + 1024)}"}`, contentType: JSON_TYPE },
    { label: 'duplicate keys', body: baselineText.startsWith('{') && baselineText.length > 2 ? `{"__dup":1,"__dup":2,${baselineText.slice(1)}` : '{"a":1,"a":2}', contentType: JSON_TYPE },
  ];
}

/**
 * Mutations of `baseline` (a value valid for `schema`): wrong types and
 * hostile values per field, each required field missing, unknown fields,
 * own `__proto__`/`constructor`/`prototype` keys at every object level.
 * `count` bodies are drawn at random from all of them (each deterministic
 * for the Rng's seed); the structural ones (missing required, unknown and
 * prototype keys) come first.
 */
export function mutatedBodies(schema: JsonSchema, baseline: unknown, rng: Rng, options: GeneratorOptions, count: number): FuzzBody[] {
  const json = (label: string, value: unknown): FuzzBody => ({ label, body: toJsonText(value), contentType: JSON_TYPE });
  const structural: FuzzBody[] = [];
  const root = resolveRef(schema, options.components);
  for (const name of root.required ?? []) {
    if (baseline !== null && typeof baseline === 'object' && name in baseline) structural.push(json(`missing required ${name}`, replaceAt(baseline, [name], undefined, true)));
  }
  const objects = containers(baseline).filter((c) => !Array.isArray(c.value));
  for (const container of rng.sample(objects, 3)) {
    const where = container.path.length === 0 ? 'top level' : container.path.join('.');
    structural.push(json(`unknown field at ${where}`, replaceAt(baseline, [...container.path, `unknown_${nextUnique()}`], 'x')));
    for (const key of ['__proto__', 'constructor', 'prototype'] as const) {
      const payload = key === 'constructor' ? { prototype: { polluted: 'yes' } } : { polluted: 'yes', isAdmin: true, role: 'admin' };
      structural.push(json(`own ${key} key at ${where}`, withRawKeys(baseline, container.path, [[key, payload]])));
    }
  }
  const fields = fieldPaths(baseline).filter((path) => !(String(path[path.length - 1]) in options.pinned));
  for (const heavy of heavyMutations()) {
    const path = fields.length > 0 ? rng.pick(fields) : [];
    structural.push(json(`${path.length > 0 ? path.join('.') : 'body'}: ${heavy.label}`, replaceAt(baseline, path, heavy.value)));
  }
  const random: FuzzBody[] = [];
  for (let i = 0; i < count * 3 && fields.length > 0 && random.length < count; i += 1) {
    const path = rng.pick(fields);
    const mutation = rng.pick(fieldMutations(schemaAt(schema, path, options.components), options, rng));
    random.push(json(`${path.join('.')}: ${mutation.label}`, replaceAt(baseline, path, mutation.value)));
  }
  // A whole-body mutation too, for schemas with no fields (body-less actions).
  if (fields.length === 0) {
    for (const [label, value] of rng.sample([...WRONG_TYPES, ...HOSTILE_NUMBERS], count)) random.push(json(`body: ${label}`, value));
  }
  return [...structural, ...random].slice(0, Math.max(count, structural.length));
}
