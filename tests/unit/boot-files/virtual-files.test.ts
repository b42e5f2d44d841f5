import { describe, expect, it } from 'vitest';
import { mapStretches, stretchesFit, stretchesOf, stretchesSize } from '../../../src-main/boot-files/virtual-files.js';

describe('stretches of a backing file', () => {
  const stretches = [
    { offset: 500, length: 100 },
    { offset: 0, length: 50 },
    { offset: 1000, length: 10 },
  ];

  it('maps a served range onto the pieces of the backing file, across stretch boundaries', () => {
    expect(mapStretches(stretches, 0, 160)).toEqual(stretches);
    expect(mapStretches(stretches, 10, 20)).toEqual([{ offset: 510, length: 20 }]);
    expect(mapStretches(stretches, 95, 10)).toEqual([{ offset: 595, length: 5 }, { offset: 0, length: 5 }]);
    expect(mapStretches(stretches, 100, 60)).toEqual([{ offset: 0, length: 50 }, { offset: 1000, length: 10 }]);
    expect(mapStretches(stretches, 149, 2)).toEqual([{ offset: 49, length: 1 }, { offset: 1000, length: 1 }]);
    expect(mapStretches(stretches, 159, 1)).toEqual([{ offset: 1009, length: 1 }]);
    expect(mapStretches(stretches, 160, 5)).toEqual([]);
  });

  it('skips empty stretches', () => {
    expect(mapStretches([{ offset: 7, length: 0 }, { offset: 20, length: 5 }], 0, 5)).toEqual([{ offset: 20, length: 5 }]);
  });

  it('reads offset and extents from a provider answer (extents win), null for a whole file', () => {
    expect(stretchesOf({ kind: 'file', path: '/x', size: 10 })).toBeNull();
    expect(stretchesOf({ kind: 'file', path: '/x', size: 10, offset: 4 })).toEqual([{ offset: 4, length: 10 }]);
    expect(stretchesOf({ kind: 'file', path: '/x', size: 160, offset: 4, extents: stretches })).toEqual(stretches);
    expect(stretchesSize(stretches)).toBe(160);
  });

  it('accepts only whole, non-negative stretches inside the backing file', () => {
    expect(stretchesFit(stretches, 1010)).toBe(true);
    expect(stretchesFit(stretches, 1009)).toBe(false);
    expect(stretchesFit([{ offset: -1, length: 5 }], 100)).toBe(false);
    expect(stretchesFit([{ offset: 1.5, length: 5 }], 100)).toBe(false);
    expect(stretchesFit([{ offset: 0, length: Number.NaN }], 100)).toBe(false);
  });
});
