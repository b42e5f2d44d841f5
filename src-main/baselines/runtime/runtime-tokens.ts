import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomSecret, secretDigest } from '../../auth/secrets.js';
import { notFound } from '../../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import type { Collection } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import { DEFAULT_TOKEN_TTL_MINUTES, type BaselineToken } from '../baselines-contract.js';

/*
 * Per-host runtime tokens (docs/baselines.md, "Runtime"). A token is the only
 * credential of the runtime URLs a machine fetches its baseline with and posts
 * its results to; it is random (256 bits, or derived from the install task's
 * own 256-bit token, below), stored only as its SHA-256, shown once, expires
 * and can be revoked. It is not an API credential: it lives in its own
 * collection, which the API authenticator never reads, and carries its own
 * prefix so a leaked one is recognisable.
 */

export const BASELINE_TOKENS_COLLECTION = 'baseline_tokens';
/** Every runtime token starts with this (API tokens start with `bwt_`). */
export const BASELINE_TOKEN_PREFIX = 'bwb_';
/** The shape of a token in a path: the prefix and base64url. Anything else is refused like a wrong token. */
export const BASELINE_TOKEN_PATTERN = /^bwb_[A-Za-z0-9_-]{16,128}$/;
/** last_used_at is written at most this often per token (a run makes a hundred requests in a minute). */
const LAST_USED_INTERVAL_MS = 60_000;
/** A task's token is reused while at least this share of its lifetime is left; older ones make way for a new one. */
const REUSE_REMAINING_SHARE = 0.25;

/** A token as stored: the secret only as its SHA-256 (hex). */
export interface TokenRow {
  id: number;
  host_id: number;
  task_id: number | null;
  digest: string;
  /** Minted for an install task's answer file: the secret is derived from the task's token (see deriveTaskToken). */
  derived: boolean;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TokenFilter extends ListQueryInput {
  host_id?: number;
  task_id?: number;
}

const SORTABLE = ['id', 'host_id', 'task_id', 'created_at', 'expires_at', 'last_used_at'] as const;

export function tokenView(row: TokenRow): BaselineToken {
  return {
    id: row.id,
    host_id: row.host_id,
    task_id: row.task_id,
    created_by: row.created_by,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}

/**
 * The token of an install task's answer file, derived from the task's token
 * and the row id: the answer file is rendered again and again (prefetch,
 * retries, cloud-init's seed files) and must name the same runner URL each
 * time, yet only the digest is stored. Whoever can compute it already holds
 * the task token, which fetches the answer file that holds this URL anyway.
 * A restarted task has a new token, so its old runner URLs stop matching.
 */
export function deriveTaskToken(taskToken: string, rowId: number): string {
  return BASELINE_TOKEN_PREFIX + createHmac('sha256', taskToken).update(`bootwright-baseline-token:${rowId}`, 'utf8').digest('base64url');
}

function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export class BaselineTokens {
  private readonly rows: Collection<TokenRow>;
  private readonly now: () => Date;

  constructor(store: Store, now: () => Date = () => new Date()) {
    this.rows = store.collection<TokenRow>(BASELINE_TOKENS_COLLECTION);
    this.now = now;
  }

  list(filter: TokenFilter): ListPage<BaselineToken> {
    const rows = this.rows.filter((row) => (filter.host_id === undefined || row.host_id === filter.host_id) && (filter.task_id === undefined || row.task_id === filter.task_id));
    return paginate(rows.map(tokenView), filter, { sortable: SORTABLE, defaultSort: '-id' });
  }

  get(id: number): TokenRow | undefined {
    return this.rows.get(id);
  }

  /** A new random token for `hostId` (and a task); the secret is returned this once. */
  async create(input: { host_id: number; task_id?: number | null; ttl_minutes?: number }, author: string): Promise<{ row: TokenRow; token: string }> {
    const token = BASELINE_TOKEN_PREFIX + randomSecret(32);
    const row = await this.rows.insert(this.newRow(input.host_id, input.task_id ?? null, secretDigest(token), false, input.ttl_minutes, author), this.now());
    return { row, token };
  }

  /**
   * The token of an install task's answer file: the newest still valid one of
   * this host and task (with a quarter of its life left) when its digest
   * still matches the task's token, else a new one. Synchronous up to the
   * write, so two renders at once find or make the same row.
   */
  forTask(hostId: number, taskId: number, taskToken: string): { row: TokenRow; token: string; committed: Promise<void> } {
    const now = this.now().getTime();
    const reusable = this.rows
      .filter((row) => row.derived && row.host_id === hostId && row.task_id === taskId && row.revoked_at === null)
      .filter((row) => {
        const expires = Date.parse(row.expires_at);
        const created = Date.parse(row.created_at);
        return expires - now > (expires - created) * REUSE_REMAINING_SHARE;
      })
      .sort((a, b) => b.id - a.id);
    for (const row of reusable) {
      const token = deriveTaskToken(taskToken, row.id);
      if (digestsEqual(secretDigest(token), row.digest)) return { row, token, committed: Promise.resolve() };
    }
    const id = this.rows.nextId();
    const token = deriveTaskToken(taskToken, id);
    const staged = this.rows.stage(this.newRow(hostId, taskId, secretDigest(token), true, undefined, `install task ${taskId}`), this.now());
    if (staged.row.id !== id) throw new Error(`baseline token id ${staged.row.id} differs from the reserved ${id}: its secret is bound to the wrong id`);
    return { row: staged.row, token, committed: staged.committed };
  }

  /**
   * The valid token row of `token`, or null for a malformed, unknown,
   * expired or revoked one (one answer for all: the caller says "not found").
   * Notes the use, at most once a minute.
   */
  async resolve(token: string): Promise<TokenRow | null> {
    if (!BASELINE_TOKEN_PATTERN.test(token)) return null;
    const digest = secretDigest(token);
    const row = this.rows.find((candidate) => digestsEqual(candidate.digest, digest));
    if (!row || row.revoked_at !== null) return null;
    const now = this.now();
    if (Date.parse(row.expires_at) <= now.getTime()) return null;
    if (row.last_used_at === null || now.getTime() - Date.parse(row.last_used_at) >= LAST_USED_INTERVAL_MS) {
      return (await this.rows.update(row.id, { last_used_at: now.toISOString() }, now)) ?? null;
    }
    return row;
  }

  /** Revokes a token (idempotent: a revoked one keeps its first revocation time). */
  async revoke(id: number): Promise<TokenRow> {
    const row = this.rows.get(id);
    if (!row) throw notFound('baseline token', id);
    if (row.revoked_at !== null) return row;
    const now = this.now();
    return (await this.rows.update(id, { revoked_at: now.toISOString() }, now)) ?? row;
  }

  private newRow(hostId: number, taskId: number | null, digest: string, derived: boolean, ttlMinutes: number | undefined, author: string): Omit<TokenRow, 'id' | 'created_at' | 'updated_at'> {
    const minutes = ttlMinutes ?? DEFAULT_TOKEN_TTL_MINUTES;
    return {
      host_id: hostId,
      task_id: taskId,
      digest,
      derived,
      created_by: author,
      expires_at: new Date(this.now().getTime() + minutes * 60_000).toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
  }
}
