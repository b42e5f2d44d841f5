import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../../src-main/core/errors.js';

const apiDoc = readFileSync(path.resolve(__dirname, '../../../docs/api.md'), 'utf8');

/** Rows of the catalogue table in docs/api.md: | `CODE` | status | meaning | */
function documentedCodes(): Map<string, number> {
  const rows = new Map<string, number>();
  for (const match of apiDoc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)) {
    if (rows.has(match[1]!)) throw new Error(`${match[1]} is documented twice`);
    rows.set(match[1]!, Number(match[2]));
  }
  return rows;
}

describe('error catalogue', () => {
  it('lists every code once in docs/api.md with its HTTP status', () => {
    const documented = documentedCodes();
    const catalogue = new Map(Object.entries(ERROR_CATALOGUE).map(([code, entry]) => [code, entry.status]));
    expect(documented).toEqual(catalogue);
  });

  it('uses only error statuses', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
    }
  });
});
