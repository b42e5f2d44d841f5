import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { nowIso } from '../core/time.js';
import { randomSecret, secretDigest } from './secrets.js';

/** A login session as stored: only the digest of the cookie value is kept. */
export interface SessionRow {
  id: number;
  user_id: number;
  /** SHA-256 (hex) of the session id sent in the cookie. */
  digest: string;
  last_seen_at: string;
  /** The absolute end, however active the session is. */
  absolute_expires_at: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionLimits {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after login regardless of use. */
  absoluteMs: number;
  /** last_seen_at is written at most this often, so browsing does not rewrite the store on every request. */
  touchIntervalMs: number;
  /** Oldest sessions of a user beyond this count are dropped at login (bounds the store). */
  maxPerUser: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleMs: 12 * 60 * 60 * 1000,
  absoluteMs: 7 * 24 * 60 * 60 * 1000,
  touchIntervalMs: 60 * 1000,
  maxPerUser: 50,
};

export interface NewSession {
  /** The cookie value; returned once, never stored. */
  secret: string;
  session: SessionRow;
  expiresAt: Date;
}

/** Login sessions in the `auth` store file (collection `sessions`); they survive restarts. */
export class SessionStore {
  readonly limits: SessionLimits;
  private readonly rows: Collection<SessionRow>;
  private readonly now: () => Date;

  constructor(store: Store, options: { limits?: Partial<SessionLimits>; now?: () => Date } = {}) {
    this.rows = store.collection<SessionRow>('sessions', 'auth');
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...options.limits };
    this.now = options.now ?? (() => new Date());
  }

  async create(userId: number, client: { ip?: string | null; userAgent?: string | null } = {}): Promise<NewSession> {
    const now = this.now();
    await this.prune();
    await this.dropOldest(userId, this.limits.maxPerUser - 1);
    // 32 random bytes: the session id the cookie carries (RFC 6265 cookie-value safe, base64url).
    const secret = randomSecret(32);
    const session = await this.rows.insert(
      {
        user_id: userId,
        digest: secretDigest(secret),
        last_seen_at: nowIso(now),
        absolute_expires_at: nowIso(new Date(now.getTime() + this.limits.absoluteMs)),
        ip: client.ip ?? null,
        user_agent: client.userAgent?.slice(0, 256) ?? null,
      },
      now,
    );
    return { secret, session, expiresAt: this.expiresAt(session) };
  }

  /**
   * The live session for a cookie value, or null. An expired session is
   * removed; a live one has last_seen_at refreshed when it is over a minute old.
   */
  async resolve(secret: string): Promise<SessionRow | null> {
    const digest = secretDigest(secret);
    const row = this.rows.find((session) => session.digest === digest);
    if (!row) return null;
    const now = this.now();
    if (this.expiresAt(row).getTime() <= now.getTime()) {
      await this.rows.remove(row.id);
      return null;
    }
    if (now.getTime() - Date.parse(row.last_seen_at) >= this.limits.touchIntervalMs) {
      return (await this.rows.update(row.id, { last_seen_at: nowIso(now) }, now)) ?? null;
    }
    return row;
  }

  get(id: number): SessionRow | undefined {
    return this.rows.get(id);
  }

  /** When the session ends if unused: the idle deadline or the absolute one, whichever is first. */
  expiresAt(row: SessionRow): Date {
    const idle = Date.parse(row.last_seen_at) + this.limits.idleMs;
    return new Date(Math.min(idle, Date.parse(row.absolute_expires_at)));
  }

  async revoke(id: number): Promise<boolean> {
    return (await this.rows.remove(id)) !== undefined;
  }

  /** Ends every session of a user, except `keepId` (the caller's own, after a password change). */
  async revokeForUser(userId: number, keepId?: number): Promise<number> {
    const removed = await this.rows.removeWhere((row) => row.user_id === userId && row.id !== keepId);
    return removed.length;
  }

  /** Removes expired sessions; returns how many. */
  async prune(): Promise<number> {
    const now = this.now().getTime();
    const removed = await this.rows.removeWhere((row) => this.expiresAt(row).getTime() <= now);
    return removed.length;
  }

  countForUser(userId: number): number {
    return this.rows.filter((row) => row.user_id === userId).length;
  }

  private async dropOldest(userId: number, keep: number): Promise<void> {
    const mine = this.rows.filter((row) => row.user_id === userId);
    if (mine.length <= keep) return;
    const oldest = new Set(mine.sort((a, b) => a.last_seen_at.localeCompare(b.last_seen_at)).slice(0, mine.length - keep));
    await this.rows.removeWhere((row) => oldest.has(row));
  }
}
