/*
 * Messages for JSON-schema errors (ajv's in the routes, TypeBox's Value.Errors
 * elsewhere: both report { keyword, instancePath, params, message }). The
 * validators' own texts ("must be equal to one of the allowed values", "must
 * be equal to constant", "must match a schema in anyOf") do not say what
 * would have been accepted; a technician reading the answer should not need
 * the API document to fix a typo, so enum and const failures name the values.
 */

/** The fields both validators report for each error. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** "must be one of a, b, c" for enum/const errors; the validator's message otherwise. */
export function schemaErrorMessage(error: SchemaError): string {
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) return oneOf(error.params.allowedValues);
  if (error.keyword === 'const' && 'allowedValue' in error.params) return oneOf([error.params.allowedValue]);
  return error.message ?? error.keyword;
}

/**
 * Folds the branch errors of an `anyOf` into one error at its path: a union
 * of literals (or of an enum and a type, like `"auto" | string[]`) says
 * "must be one of a, b" or "must be auto, or an array" instead of one line
 * per branch and a "must match a schema in anyOf". When a branch failed for
 * another reason (a nullable string too short), that reason is what is kept:
 * it says more than "must be null". Errors deeper inside a branch (a field of
 * an object branch) are kept as they are.
 */
export function foldUnionErrors<E extends SchemaError>(errors: readonly E[]): E[] {
  const unionPaths = new Set(errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath));
  if (unionPaths.size === 0) return [...errors];
  const groups = new Map<string, E[]>();
  for (const error of errors) {
    if (!unionPaths.has(error.instancePath)) continue;
    const group = groups.get(error.instancePath) ?? [];
    group.push(error);
    groups.set(error.instancePath, group);
  }
  const out: E[] = [];
  for (const error of errors) {
    const group = groups.get(error.instancePath);
    if (!group) {
      out.push(error);
      continue;
    }
    if (group[0] !== error) continue;
    out.push(...foldGroup(group));
  }
  return out;
}

function foldGroup<E extends SchemaError>(group: readonly E[]): E[] {
  const values: unknown[] = [];
  const types: string[] = [];
  const other: E[] = [];
  for (const error of group) {
    if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) values.push(...error.params.allowedValues);
    else if (error.keyword === 'const' && 'allowedValue' in error.params) values.push(error.params.allowedValue);
    else if (error.keyword === 'type' && typeof error.params.type === 'string') types.push(error.params.type);
    else if (error.keyword !== 'anyOf') other.push(error);
  }
  if (other.length > 0) return other;
  const [first] = group;
  if (!first || (values.length === 0 && types.length === 0)) return [...group];
  const parts = values.length > 0 ? [oneOf(values)] : [];
  for (const type of types) parts.push(`${parts.length === 0 ? 'must be ' : 'or '}${type === 'null' ? 'null' : `${article(type)} ${type}`}`);
  return [{ ...first, keyword: 'anyOf', params: { allowedValues: values, types }, message: parts.join(', ') }];
}

function oneOf(values: readonly unknown[]): string {
  const shown = [...new Set(values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))))];
  return shown.length === 1 ? `must be ${shown[0]}` : `must be one of ${shown.join(', ')}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}
