import type { Role } from '../core/http-kit/access.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import { AppError, conflict, invalid, notFound } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-hash.js';
import { PasswordHasher } from './password-hasher.js';
import type { SessionStore } from './session-store.js';

import { USERNAME_PATTERN } from './auth-contract.js';

export { USERNAME_PATTERN };
const USERNAME_RE = new RegExp(USERNAME_PATTERN);

/** A user as stored in the `auth` file (collection `users`). */
export interface UserRow {
  id: number;
  username: string;
  role: Role;
  password_hash: string;
  disabled: boolean;
  password_changed_at: string;
  created_at: string;
  updated_at: string;
}

/** A user as the API shows it: never the password hash. */
export type PublicUser = Omit<UserRow, 'password_hash'>;

export interface NewUser {
  username: string;
  password: string;
  role: Role;
}

export interface UserPatch {
  role?: Role;
  disabled?: boolean;
  password?: string;
}

const SORTABLE = ['id', 'username', 'role', 'disabled', 'created_at', 'updated_at', 'password_changed_at'] as const;

export function toPublicUser(row: UserRow): PublicUser {
  const { password_hash: _secret, ...rest } = row;
  return rest;
}

function checkPassword(field: string, password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw invalid(field, `must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw invalid(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

/**
 * Users and their rules: unique case-insensitive usernames, scrypt password
 * hashes, and never fewer than one enabled admin. Disabling a user, deleting
 * one or setting a password ends the user's sessions.
 */
export class UserDirectory {
  private readonly rows: Collection<UserRow>;
  private readonly sessions: SessionStore;
  private readonly now: () => Date;
  /** Every hash and verification goes through it (bounded concurrency, off libuv's pool). */
  readonly hasher: PasswordHasher;

  constructor(store: Store, sessions: SessionStore, now: () => Date = () => new Date(), hasher: PasswordHasher = new PasswordHasher()) {
    this.rows = store.collection<UserRow>('users', 'auth');
    this.sessions = sessions;
    this.now = now;
    this.hasher = hasher;
  }

  get size(): number {
    return this.rows.size;
  }

  list(query: ListQueryInput): ListPage<PublicUser> {
    return paginate(this.rows.all().map(toPublicUser), query, {
      sortable: SORTABLE,
      defaultSort: 'id',
      searchText: (user) => [user.username, user.role],
    });
  }

  get(id: number): PublicUser {
    return toPublicUser(this.require(id));
  }

  /** The stored row (with hash) for the authenticator; undefined when absent. */
  row(id: number): UserRow | undefined {
    return this.rows.get(id);
  }

  findByUsername(username: string): UserRow | undefined {
    const wanted = username.toLowerCase();
    return this.rows.find((row) => row.username.toLowerCase() === wanted);
  }

  async create(input: NewUser): Promise<PublicUser> {
    if (!USERNAME_RE.test(input.username)) throw invalid('body.username', 'must be 1-64 characters of A-Z a-z 0-9 . _ -');
    checkPassword('body.password', input.password);
    const passwordHash = await this.hasher.hash(input.password);
    // Checked after the (slow) hash and right before the synchronous insert, so two concurrent creates cannot both pass.
    if (this.findByUsername(input.username)) {
      throw conflict(`a user named "${input.username}" already exists (usernames are case-insensitive)`, [
        { field: 'body.username', message: 'already exists' },
      ]);
    }
    const now = this.now();
    const row = await this.rows.insert(
      { username: input.username, role: input.role, password_hash: passwordHash, disabled: false, password_changed_at: nowIso(now) },
      now,
    );
    return toPublicUser(row);
  }

  /** `keepSessionId`: the caller's own session, kept when admins set their own password. */
  async update(id: number, patch: UserPatch, keepSessionId?: number): Promise<PublicUser> {
    this.require(id);
    if (patch.password !== undefined) checkPassword('body.password', patch.password);
    const passwordHash = patch.password === undefined ? undefined : await this.hasher.hash(patch.password);
    const current = this.require(id);
    const nextRole = patch.role ?? current.role;
    const nextDisabled = patch.disabled ?? current.disabled;
    if (isEnabledAdmin(current) && (nextRole !== 'admin' || nextDisabled)) this.assertNotLastAdmin(current, 'demote or disable');
    const now = this.now();
    const changes: Partial<UserRow> = {};
    if (patch.role !== undefined) changes.role = patch.role;
    if (patch.disabled !== undefined) changes.disabled = patch.disabled;
    if (passwordHash !== undefined) {
      changes.password_hash = passwordHash;
      changes.password_changed_at = nowIso(now);
    }
    const updated = await this.rows.update(id, changes, now);
    if (!updated) throw notFound('user', id);
    if (nextDisabled && !current.disabled) await this.sessions.revokeForUser(id);
    else if (passwordHash !== undefined) await this.sessions.revokeForUser(id, keepSessionId);
    return toPublicUser(updated);
  }

  async remove(id: number): Promise<PublicUser> {
    const current = this.require(id);
    if (isEnabledAdmin(current)) this.assertNotLastAdmin(current, 'delete');
    await this.rows.remove(id);
    await this.sessions.revokeForUser(id);
    return toPublicUser(current);
  }

  /** A user's own password change; ends the user's other sessions (keeps `keepSessionId`). */
  async changeOwnPassword(id: number, currentPassword: string, newPassword: string, keepSessionId?: number): Promise<PublicUser> {
    const current = this.require(id);
    checkPassword('body.new_password', newPassword);
    if (!(await this.hasher.verify(currentPassword, current.password_hash, 'trusted'))) {
      throw invalid('body.current_password', 'is not your current password');
    }
    const passwordHash = await this.hasher.hash(newPassword);
    const now = this.now();
    const updated = await this.rows.update(id, { password_hash: passwordHash, password_changed_at: nowIso(now) }, now);
    if (!updated) throw notFound('user', id);
    await this.sessions.revokeForUser(id, keepSessionId);
    return toPublicUser(updated);
  }

  /**
   * The enabled user these credentials belong to, or null. An unknown
   * username still spends a full hash, so timing does not reveal which names
   * exist. As a login it may be refused (429) when too many hashes wait.
   */
  async verifyCredentials(username: string, password: string): Promise<UserRow | null> {
    const row = this.findByUsername(username);
    if (!row) {
      await this.hasher.spendDummy(password, 'login');
      return null;
    }
    const ok = await this.hasher.verify(password, row.password_hash, 'login');
    return ok && !row.disabled ? row : null;
  }

  private require(id: number): UserRow {
    const row = this.rows.get(id);
    if (!row) throw notFound('user', id);
    return row;
  }

  private assertNotLastAdmin(target: UserRow, action: string): void {
    const others = this.rows.filter((row) => row.id !== target.id && isEnabledAdmin(row));
    if (others.length === 0) {
      throw new AppError('INVALID_STATE', `cannot ${action} user "${target.username}": it is the last enabled admin; create or enable another admin first`);
    }
  }
}

function isEnabledAdmin(row: UserRow): boolean {
  return row.role === 'admin' && !row.disabled;
}
