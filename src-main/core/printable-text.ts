/**
 * "Printable text": what names, labels, descriptions and comments may hold.
 * Any Unicode letter, digit, symbol or space, but none of the characters that
 * change how text around them is shown or stored: C0 controls (NUL, newline,
 * escape…), DEL and C1 controls, the line and paragraph separators U+2028 and
 * U+2029, the bidi embeddings, overrides and isolates U+202A–U+202E and
 * U+2066–U+2069 (Trojan Source, CVE-2021-42574: a name that reads differently
 * from what it is), and lone UTF-16 surrogates (not text; they break UTF-8
 * encoders, logs and the store).
 */

/** The refused characters as a regex character-class body (needs the `u` flag: with it a valid surrogate pair is one character and does not match). */
export const NON_PRINTABLE_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';

/** JSON Schema pattern of printable text (ajv compiles patterns with the `u` flag). */
export const PRINTABLE_TEXT_PATTERN = `^[^${NON_PRINTABLE_CLASS}]*$`;

const NON_PRINTABLE = new RegExp(`[${NON_PRINTABLE_CLASS}]`, 'u');

/** The message a field gets for non-printable text. */
export const PRINTABLE_TEXT_MESSAGE = 'must be printable text: no control characters (NUL, newline…), bidi overrides or isolates, or lone surrogates';

export function isPrintableText(text: string): boolean {
  return !NON_PRINTABLE.test(text);
}

/** The first refused character as `U+XXXX`, for error messages; null when the text is printable. */
export function firstNonPrintable(text: string): string | null {
  const match = NON_PRINTABLE.exec(text);
  if (!match) return null;
  return `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `text` is not printable (naming the character), or null. */
export function printableProblem(text: string): string | null {
  const found = firstNonPrintable(text);
  return found === null ? null : `${PRINTABLE_TEXT_MESSAGE} (found ${found})`;
}
