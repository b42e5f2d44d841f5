import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { isPrintableText, printableProblem, PRINTABLE_TEXT_PATTERN } from '../../../src-main/core/printable-text.js';

/** The JSON Schema pattern (as ajv compiles it, with the `u` flag) and the function agree. */
const schemaCheck = new Ajv().compile({ type: 'string', pattern: PRINTABLE_TEXT_PATTERN });

describe('printable text', () => {
  it.each(['', 'lab-01', 'Rack 3 – Büro', '机房 😀', 'zero\u200bwidth', 'a\u00a0b', 'emoji 👩‍💻'])('accepts %j', (text) => {
    expect(isPrintableText(text)).toBe(true);
    expect(schemaCheck(text)).toBe(true);
  });

  it.each([
    ['NUL', 'a\u0000b', 'U+0000'],
    ['tab', 'a\tb', 'U+0009'],
    ['newline', 'a\nb', 'U+000A'],
    ['escape', '\u001b[31mred', 'U+001B'],
    ['DEL', 'a\u007fb', 'U+007F'],
    ['C1 NEL', 'a\u0085b', 'U+0085'],
    ['line separator', 'a\u2028b', 'U+2028'],
    ['RLO', 'invoice\u202egpj.exe', 'U+202E'],
    ['LRE', 'a\u202ab', 'U+202A'],
    ['RLI', 'a\u2067b', 'U+2067'],
    ['PDI', 'a\u2069b', 'U+2069'],
    ['lone high surrogate', 'a\ud800', 'U+D800'],
    ['lone low surrogate', '\udc00a', 'U+DC00'],
    ['reversed pair', '\ude00\ud83d', 'U+DE00'],
  ])('refuses %s', (_what, text, code) => {
    expect(isPrintableText(text)).toBe(false);
    expect(schemaCheck(text)).toBe(false);
    expect(printableProblem(text)).toContain(code);
  });
});
