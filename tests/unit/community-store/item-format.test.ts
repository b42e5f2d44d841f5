import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultStoreDir } from '../../../src-main/community-store/builtin-catalog.js';
import { buildIndex } from '../../../src-main/community-store/index-builder.js';
import { canonicalJson, checkAgainstIndex, checkIndex, checkItemFile, parseText, payloadSha256, referencesOf } from '../../../src-main/community-store/item-format.js';

const item = {
  type: 'script',
  id: 'hello',
  name: 'Hello',
  version: '1.0.0',
  summary: 's',
  tags: ['a'],
  os_family: 'linux',
  author: 'me',
  description: 'd',
  payload: { name: 'Hello', kind: 'sh', content: 'echo hi\n' },
};

describe('canonical payload digest', () => {
  it('sorts keys at every level and ignores formatting, so YAML and JSON of one payload hash alike', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 'é' }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":"é","z":1}]},"b":1}');
    const yamlText = 'payload:\n  kind: sh\n  name: Hello\n  content: |\n    echo hi\n';
    const fromYaml = (parseText(yamlText, 'x') as { payload: unknown }).payload;
    expect(payloadSha256(fromYaml)).toBe(payloadSha256(JSON.parse('{"content":"echo hi\\n","name":"Hello","kind":"sh"}')));
    expect(payloadSha256(fromYaml)).not.toBe(payloadSha256({ ...item.payload, content: 'echo hi' }));
  });

  it('is SHA-256 of the canonical JSON text', () => {
    expect(payloadSha256({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});

describe('item files', () => {
  it('accepts a valid item and lists what it refers to', () => {
    expect(checkItemFile(item).id).toBe('hello');
    expect(referencesOf(checkItemFile({ ...item, type: 'bundle', payload: { items: ['script/a', 'profile/b'] }, requires: ['script/a'] }))).toEqual(['script/a', 'profile/b']);
  });

  it('refuses unknown fields, bad ids, a missing payload and a bundle without items', () => {
    expect(() => checkItemFile({ ...item, extra: 1 })).toThrow(/item.extra: is not a known field/);
    expect(() => checkItemFile({ ...item, id: 'Bad Id' })).toThrow();
    expect(() => checkItemFile({ ...item, payload: 'text' })).toThrow(/payload/);
    expect(() => checkItemFile({ ...item, type: 'bundle', payload: { items: [] } })).toThrow();
    expect(() => checkItemFile({ ...item, requires: ['nonsense'] })).toThrow();
  });

  it('refuses an index listing an item twice', () => {
    const entry = { type: 'script', id: 'a', name: 'a', version: '1', summary: '', tags: [], os_family: null, author: '', sha256: '0'.repeat(64), file: 'a.yaml' };
    expect(() => checkIndex({ schema_version: 1, items: [entry, entry] }, 'index')).toThrow(/twice/);
    expect(() => checkIndex({ schema_version: 1, items: [{ ...entry, file: '../a.yaml' }] }, 'index')).toThrow();
  });

  it('checks an item against its index entry: identity, version and payload digest', () => {
    const checked = checkItemFile(item);
    const entry = { type: 'script' as const, id: 'hello', name: 'Hello', version: '1.0.0', summary: '', tags: [], os_family: null, author: '', sha256: payloadSha256(item.payload), file: 'x' };
    expect(() => checkAgainstIndex(checked, entry, 'test')).not.toThrow();
    expect(() => checkAgainstIndex({ ...checked, payload: { ...item.payload, content: 'rm -rf /\n' } }, entry, 'test')).toThrow(/SHA-256/);
    expect(() => checkAgainstIndex(checked, { ...entry, version: '2' }, 'test')).toThrow(/version/);
  });
});

describe('the shipped index', () => {
  it('is up to date with the item files (run npm run store:index after editing an item)', async () => {
    const dir = defaultStoreDir();
    const files = (await readdir(path.join(dir, 'items'), { recursive: true })).filter((file) => /\.(ya?ml|json)$/.test(file)).sort();
    const built = buildIndex(await Promise.all(files.map(async (file) => ({ file: `items/${file.split(path.sep).join('/')}`, text: await readFile(path.join(dir, 'items', file), 'utf8') }))));
    expect(parse(await readFile(path.join(dir, 'index.yaml'), 'utf8'))).toEqual(built);
  });
});
