import { createTwoFilesPatch } from 'diff';
import type { Collection, NewRow, Row } from '../store/collection.js';
import { paginate, type ListOptions, type ListPage, type ListQueryInput } from './http-kit/list-query.js';

/** Fields every saved text version has, whatever owns it (a profile's script, an answer template). */
export interface TextVersion extends Row {
  /** 1, 2, 3… per owner; never reused. */
  version: number;
  /** Username of the principal who made the change. */
  author: string;
  comment: string;
}

/** How one kind of owner stores its versions: which field names the owner and which holds the text. */
export interface TextVersionsOptions<V extends TextVersion> {
  /** The owner's id in a stored row (profiles keep `profile_id`, answer templates `template_id`). */
  ownerOf: (row: V) => number;
  /** The versioned text (a profile's `script`, a template's `content`). */
  textOf: (row: V) => string;
}

/** A unified diff with its line counts. */
export interface TextDiff {
  diff: string;
  additions: number;
  deletions: number;
}

/**
 * The history of a versioned text kept in a store collection: the one
 * versioning rule profile scripts and answer templates share. Versions are
 * never rewritten; a rollback is one more version. The rows keep their
 * owner's stored shape (this module only reads them through the accessors),
 * so moving an owner onto it changes no stored data.
 */
export class TextVersions<V extends TextVersion> {
  private readonly rows: Collection<V>;
  private readonly ownerOf: (row: V) => number;
  private readonly textOf: (row: V) => string;

  constructor(rows: Collection<V>, options: TextVersionsOptions<V>) {
    this.rows = rows;
    this.ownerOf = options.ownerOf;
    this.textOf = options.textOf;
  }

  /** Every version of one owner, in insertion order (oldest first). */
  of(ownerId: number): V[] {
    return this.rows.filter((row) => this.ownerOf(row) === ownerId);
  }

  list(ownerId: number, query: ListQueryInput, options: ListOptions<V>): ListPage<V> {
    return paginate(this.of(ownerId), query, options);
  }

  /** A version by its row id, only when it belongs to `ownerId`. */
  byId(ownerId: number, id: number): V | undefined {
    const row = this.rows.get(id);
    return row && this.ownerOf(row) === ownerId ? row : undefined;
  }

  /** A version by its number. */
  byNumber(ownerId: number, version: number): V | undefined {
    return this.rows.find((row) => this.ownerOf(row) === ownerId && row.version === version);
  }

  add(row: NewRow<V>): Promise<V> {
    return this.rows.insert(row);
  }

  /** Removes an owner's whole history (the owner was deleted). */
  removeOwner(ownerId: number): Promise<V[]> {
    return this.rows.removeWhere((row) => this.ownerOf(row) === ownerId);
  }

  /** Unified diff from one version's text to another's (or to any text). */
  diff(label: string, from: V, to: V | { version: number | string; text: string }): TextDiff {
    const toText = 'text' in to ? to.text : this.textOf(to);
    return unifiedDiff(label, this.textOf(from), toText, `version ${from.version}`, `version ${to.version}`);
  }
}

/** A unified diff of two texts (the `diff` package), counting added and removed lines. */
export function unifiedDiff(label: string, fromText: string, toText: string, fromHeader: string, toHeader: string): TextDiff {
  const diff = createTwoFilesPatch(label, label, fromText, toText, fromHeader, toHeader);
  let additions = 0;
  let deletions = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) additions += 1;
    else if (line.startsWith('-') && !line.startsWith('---')) deletions += 1;
  }
  return { diff, additions, deletions };
}
