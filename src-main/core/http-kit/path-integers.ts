/**
 * Integer path parameters (`/dns/records/:id`) arrive as text and ajv coerces
 * them with Number(), which reads " 27", "28.0", "2.9e1" and "+24" as ids. An
 * id in a path is accepted only in its one canonical spelling: decimal digits
 * without sign, leading zeros, spaces, fraction or exponent, and within the
 * safe integer range.
 */
export const CANONICAL_INTEGER = /^(0|[1-9][0-9]{0,15})$/;

/** The ajv error the API reports for a non-canonical id (mapped to `params.<name>` by the error handler). */
export interface PathIntegerError {
  instancePath: string;
  schemaPath: string;
  keyword: 'canonicalInteger';
  message: string;
  params: Record<string, unknown>;
}

export function isCanonicalInteger(text: string): boolean {
  return CANONICAL_INTEGER.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER;
}

/** Names of the integer-typed properties of a params schema. */
export function integerParamNames(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | null)?.properties;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

/** The errors for the integer params of `params` (still text, before coercion) that are not canonical. */
export function pathIntegerErrors(names: readonly string[], params: unknown): PathIntegerError[] {
  if (params === null || typeof params !== 'object') return [];
  const errors: PathIntegerError[] = [];
  for (const name of names) {
    const value = (params as Record<string, unknown>)[name];
    if (typeof value === 'string' && !isCanonicalInteger(value)) {
      errors.push({
        instancePath: `/${name}`,
        schemaPath: `#/properties/${name}`,
        keyword: 'canonicalInteger',
        message: 'must be a decimal integer without sign, leading zeros, spaces or fraction',
        params: {},
      });
    }
  }
  return errors;
}
