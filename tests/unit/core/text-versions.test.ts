import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TextVersions, unifiedDiff, type TextVersion } from '../../../src-main/core/text-versions.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

interface NoteVersion extends TextVersion {
  note_id: number;
  body: string;
}

let dir: { dir: string; remove: () => Promise<void> };
let store: Store;
let history: TextVersions<NoteVersion>;

beforeEach(async () => {
  dir = await tempDir();
  store = await Store.open({ dataDir: dir.dir });
  history = new TextVersions(store.collection<NoteVersion>('note_versions'), { ownerOf: (row) => row.note_id, textOf: (row) => row.body });
});
afterEach(async () => {
  await store.close();
  await dir.remove();
});

function add(noteId: number, version: number, body: string): Promise<NoteVersion> {
  return history.add({ note_id: noteId, version, body, author: 'me', comment: `v${version}` });
}

describe('TextVersions', () => {
  it('keeps versions per owner in the owner\'s own field and finds them by id and number', async () => {
    const first = await add(1, 1, 'a\n');
    await add(2, 1, 'other\n');
    await add(1, 2, 'b\n');
    expect(history.of(1).map((row) => row.version)).toEqual([1, 2]);
    expect(history.byId(1, first.id)?.body).toBe('a\n');
    expect(history.byId(2, first.id)).toBeUndefined();
    expect(history.byNumber(1, 2)?.body).toBe('b\n');
    expect(history.list(1, { sort: '-version' }, { sortable: ['version'] }).data.map((row) => row.version)).toEqual([2, 1]);
    expect(store.collection<NoteVersion>('note_versions').get(first.id)).toMatchObject({ note_id: 1, body: 'a\n' });
  });

  it('diffs two versions or a version and a text, and removes one owner\'s history', async () => {
    const one = await add(1, 1, 'same\nold\n');
    const two = await add(1, 2, 'same\nnew\nmore\n');
    expect(history.diff('note', one, two)).toMatchObject({ additions: 2, deletions: 1 });
    expect(history.diff('note', two, { version: 'current', text: 'same\nnew\nmore\n' })).toMatchObject({ additions: 0, deletions: 0 });
    await add(2, 1, 'keep\n');
    expect((await history.removeOwner(1)).length).toBe(2);
    expect(history.of(1)).toEqual([]);
    expect(history.of(2).length).toBe(1);
  });

  it('counts lines in a unified diff', () => {
    const diff = unifiedDiff('x', 'a\nb\n', 'a\nc\n', 'version 1', 'version 2');
    expect(diff.diff).toContain('-b');
    expect(diff.diff).toContain('+c');
    expect(diff).toMatchObject({ additions: 1, deletions: 1 });
  });
});
