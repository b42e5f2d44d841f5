import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTRY_TEMPLATE } from '../../../src-main/boot-scripts/entry-script.js';
import { IDENTITY_QUERY } from '../../../src-main/profiles/ipxe-syntax.js';
import { ROOT, codeBlocks, readDoc } from './markdown-blocks.js';

/*
 * The README and docs stay true to the product: every doc is listed in the
 * README, the quickstart is linked at its top, no "comes later" text is left
 * for what is built, and the entry script the docs show is the one served.
 */

const DOCS = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
const README = readDoc('README.md');

/** Phrases that promise work for later issues: stale once the work is done (a doc says what is, or what is not built). */
const STALE = [/come in the next issues?/i, /comes? in a later issue/i, /\(a later issue\)/i, /in the next issue/i, /not registered yet/i];

describe('README and docs', () => {
  it('lists every docs/*.md in the README', () => {
    expect(DOCS.length).toBeGreaterThan(10);
    const unlisted = DOCS.filter((name) => !README.includes(`](docs/${name})`));
    expect(unlisted).toEqual([]);
  });

  it('links the quickstart before anything else', () => {
    const firstLink = /\]\(([^)]+)\)/.exec(README);
    expect(firstLink?.[1]).toBe('docs/quickstart.md');
  });

  it('keeps no "comes in a later issue" text', () => {
    const found = ['README.md', ...DOCS.map((name) => `docs/${name}`)].flatMap((file) =>
      readDoc(file)
        .split('\n')
        .flatMap((line, index) => (STALE.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('shows the entry script exactly as it is served, ${mac} and ${uuid} without :uristring', () => {
    const doc = readDoc('docs/hosts-and-profiles.md');
    expect(codeBlocks(doc).some((block) => block.code === DEFAULT_ENTRY_TEMPLATE)).toBe(true);
    expect(doc).toContain(`boot.ipxe?${IDENTITY_QUERY}`);
    expect(doc).not.toContain('${mac:uristring}');
  });

  it('gives the README a troubleshooting table with the usual field problems', () => {
    const table = README.slice(README.indexOf('## Troubleshooting'), README.indexOf('## Documentation'));
    for (const topic of [/no link/i, /another DHCP server/i, /Secure Boot/, /firewall/i, /IPv6/]) expect(table).toMatch(topic);
  });
});
