import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/*
 * package.json's `engines.node` is honest: every Node version it admits is
 * one that every locked dependency (production and development) declares
 * it supports, so `npm ci` on a supported Node prints no EBADENGINE warning.
 */

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };

describe('engines.node', () => {
  it('is a subset of every locked dependency\'s declared Node range', () => {
    const ours = manifest.engines.node;
    const narrower: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      if (where === '' || Array.isArray(entry.engines)) continue;
      const theirs = entry.engines?.node;
      if (theirs === undefined || theirs === '*') continue;
      if (!semver.subset(ours, theirs, { includePrerelease: false })) narrower.push(`${where.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} wants ${theirs}`);
    }
    expect(narrower, `engines.node "${ours}" admits Node versions these dependencies do not declare`).toEqual([]);
  });
});
