import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { foldUnionErrors, schemaErrorMessage } from '../../../../src-main/core/http-kit/schema-errors.js';

/* Enum and literal-union failures name the accepted values (TypeBox reports like ajv, so one helper serves both). */

const Schema = Type.Object({
  mode: Type.Enum(['server', 'proxy', 'off']),
  kind: Type.Union([Type.Literal('sh'), Type.Literal('ps1')]),
  served: Type.Union([Type.Enum(['auto']), Type.Array(Type.String())]),
  router: Type.Union([Type.String({ minLength: 7 }), Type.Null()]),
});

function messages(value: unknown): Record<string, string> {
  return Object.fromEntries(foldUnionErrors(Value.Errors(Schema, value)).map((error) => [error.instancePath, schemaErrorMessage(error)]));
}

describe('schema error messages', () => {
  it('lists the values of an enum, a literal union and an enum-or-array union', () => {
    expect(messages({ mode: 'bogus', kind: 'bat', served: 'x', router: '10.0.0.1' })).toEqual({
      '/mode': 'must be one of server, proxy, off',
      '/kind': 'must be one of sh, ps1',
      '/served': 'must be auto, or an array',
    });
  });

  it('keeps the reason of a branch that failed for something else than its type (a nullable string too short)', () => {
    expect(messages({ mode: 'off', kind: 'sh', served: [], router: 'abc' })).toEqual({ '/router': expect.stringMatching(/fewer than 7 characters/i) });
  });

  it('names null beside the values of a nullable enum', () => {
    const errors = foldUnionErrors(Value.Errors(Type.Union([Type.Enum(['a', 'b']), Type.Null()]), 'c'));
    expect(errors.map(schemaErrorMessage)).toEqual(['must be one of a, b, or null']);
  });

  it('leaves errors without a union alone', () => {
    const errors = [{ instancePath: '/x', keyword: 'minimum', params: { limit: 1 }, message: 'must be >= 1' }];
    expect(foldUnionErrors(errors)).toEqual(errors);
    expect(schemaErrorMessage(errors[0]!)).toBe('must be >= 1');
  });
});
