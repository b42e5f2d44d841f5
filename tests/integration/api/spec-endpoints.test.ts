import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../../src-main/core/http-kit/route-table.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/*
 * Every endpoint of the specification exists: each METHOD PATH of its
 * Endpoints tables (tests/fixtures/spec-endpoints.txt) is a registered API
 * route, with path parameters matched by position (the spec's {profileId}
 * is our {id}). The ones still to be built are listed here with their
 * issue, so the list can only shrink.
 */

const NOT_BUILT_YET: Record<string, string> = {};

/** Whether a registered route (fastify `:param` segments) serves a spec path ({param} segments or literals). */
function serves(route: string, spec: string): boolean {
  const ours = route.split('/');
  const theirs = spec.split('/');
  if (ours.length !== theirs.length) return false;
  return ours.every((segment, index) => {
    const wanted = theirs[index] ?? '';
    if (segment.startsWith(':')) return true;
    return !wanted.startsWith('{') && segment === wanted;
  });
}

const specEndpoints = readFileSync('tests/fixtures/spec-endpoints.txt', 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

let t: TestCore;
beforeAll(async () => {
  t = await createTestCore();
  await t.core.http.ready();
});
afterAll(async () => t.close());

describe('the specification\'s endpoints', () => {
  it('are listed (the fixture was read)', () => {
    expect(specEndpoints.length).toBeGreaterThan(150);
  });

  it('are all registered, but the few named with their issue', () => {
    const routes = registeredRoutes(t.core.http)
      .filter((route) => route.url.startsWith('/api/v1/'))
      .map((route) => ({ method: route.method, url: route.url.slice('/api/v1'.length) }));
    const missing = specEndpoints.filter((line) => {
      const [method, path] = line.split(' ') as [string, string];
      return !routes.some((route) => route.method === method && serves(route.url, path));
    });
    expect(missing.filter((line) => !(line in NOT_BUILT_YET)), 'spec endpoints without a route').toEqual([]);
    const builtNow = Object.entries(NOT_BUILT_YET).filter(([line, why]) => !why.endsWith('generic route') && !missing.includes(line));
    expect(builtNow.map(([line]) => line), 'built now: take them off NOT_BUILT_YET').toEqual([]);
  });
});
