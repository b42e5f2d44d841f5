import { describe, expect, it } from 'vitest';
import { integerParamNames, isCanonicalInteger, pathIntegerErrors } from '../../../../src-main/core/http-kit/path-integers.js';
import { IdParams } from '../../../../src-main/core/http-kit/schemas.js';

describe('canonical integer path params', () => {
  it.each(['0', '1', '27', '9007199254740991'])('accepts %s', (text) => {
    expect(isCanonicalInteger(text)).toBe(true);
  });

  it.each(['', ' 27', '27 ', '+27', '-27', '027', '00', '27.0', '2.7e1', '27e0', '0x1b', '0b11011', '1_000', '٢٧', '9007199254740992', '99999999999999999'])(
    'refuses %j',
    (text) => {
      expect(isCanonicalInteger(text)).toBe(false);
    },
  );

  it('finds the integer params of a schema and reports the bad ones as params errors', () => {
    expect(integerParamNames(IdParams)).toEqual(['id']);
    expect(pathIntegerErrors(['id'], { id: '28.0' })).toMatchObject([{ instancePath: '/id', keyword: 'canonicalInteger' }]);
    expect(pathIntegerErrors(['id'], { id: '28' })).toEqual([]);
  });
});
