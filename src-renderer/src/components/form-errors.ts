import { describeError, isApiError } from '../api/api-error.js';

/** What applyServerErrors needs of a form (Mantine's useForm fits). */
export interface FieldErrorTarget {
  setFieldError(path: string, message: string): void;
}

export interface ServerErrorOptions {
  /** Where the body's fields start in `details[].field` (default `body`). */
  prefix?: string;
  /**
   * Maps an API field path (without the prefix, dots and numeric indices:
   * `subnets.0.ranges.1.start`) to the form's path, or null when the form has
   * no such field. Default: the same path, when its first segment is in `fields`.
   */
  map?: (path: string) => string | null;
  /** The form's top-level field names, for the default mapping. */
  fields?: readonly string[];
}

/**
 * `body.subnets[0].ranges[1].start` and `body.subnets.0.ranges.1.start` (both
 * spellings occur) → `subnets.0.ranges.1.start`; null for another prefix.
 */
export function fieldPath(field: string, prefix = 'body'): string | null {
  const normalised = field.replace(/\[(\d+)\]/g, '.$1');
  if (normalised === prefix) return '';
  if (!normalised.startsWith(`${prefix}.`)) return null;
  return normalised.slice(prefix.length + 1);
}

/**
 * Puts a failed save's field errors (`details: [{field: 'body.x', message}]`)
 * on the form's fields. Returns the message to show above the form: the
 * error itself when no detail found a field, else null.
 */
export function applyServerErrors(form: FieldErrorTarget, error: unknown, options: ServerErrorOptions = {}): string | null {
  if (!isApiError(error) || error.details.length === 0) return describeError(error);
  const prefix = options.prefix ?? 'body';
  const map =
    options.map ??
    ((path: string) => {
      const top = path.split('.')[0] ?? '';
      return options.fields?.includes(top) ? path : null;
    });
  let placed = 0;
  const unplaced: string[] = [];
  for (const detail of error.details) {
    const path = fieldPath(detail.field, prefix);
    const target = path === null || path === '' ? null : map(path);
    if (target) {
      form.setFieldError(target, capitalise(detail.message));
      placed += 1;
    } else {
      unplaced.push(`${detail.field}: ${detail.message}`);
    }
  }
  if (placed === 0) return error.message;
  return unplaced.length > 0 ? unplaced.join('; ') : null;
}

function capitalise(text: string): string {
  return text.length > 0 ? text[0]!.toUpperCase() + text.slice(1) : text;
}
