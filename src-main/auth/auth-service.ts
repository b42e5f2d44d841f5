import type { Principal } from '../core/http-kit/access.js';
import type { AuthVia, SessionData, UserRefData } from './auth-contract.js';
import type { RequestGuard } from '../core/http-kit/route-table.js';
import type { AppConfig } from '../core/config.js';
import { AppError, isAppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { nowIso } from '../core/time.js';
import type { EventLog } from '../events/event-log.js';
import type { Store } from '../store/store.js';
import { SessionAndTokenAuthenticator } from './authenticator.js';
import { HostAllowlist, createHostGuard } from './host-guard.js';
import { ensureInitialAdmin } from './initial-admin.js';
import { LoginLimits, type LoginAttempt, type LoginLimitsOptions } from './login-limits.js';
import { PasswordHasher, type PasswordHasherOptions } from './password-hasher.js';
import { RefusalDelay, type RefusalDelayOptions } from './refusal-delay.js';
import { SessionStore, type SessionLimits } from './session-store.js';
import { TokenStore } from './token-store.js';
import { UserDirectory, type UserRow } from './user-directory.js';

export const INVALID_CREDENTIALS = 'invalid username or password';

export interface AuthServiceOptions {
  store: Store;
  events: EventLog;
  log: Logger;
  config: Pick<AppConfig, 'dataDir' | 'adminPassword' | 'tlsCert' | 'tlsKey'>;
  /** Host names beyond the machine's own that the Host guard accepts. */
  extraHosts?: readonly string[];
  /** Clock for sessions and tokens (tests). */
  now?: () => Date;
  sessionLimits?: Partial<SessionLimits>;
  /** Login throttles (per username+address, per source, global). */
  throttle?: LoginLimitsOptions;
  /** Password hashing concurrency, login queue and (tests) the derivation itself. */
  hasher?: PasswordHasherOptions;
  /** How refused (429) logins are held before the answer goes out. */
  refusalDelay?: RefusalDelayOptions;
}

/** The identity part of login and session answers. */
export type UserRef = UserRefData;

export type { AuthVia };

export type SessionInfo = SessionData;

export interface LoginInput {
  username: string;
  password: string;
  ip: string;
  userAgent?: string | null;
}

export interface LoginResult {
  principal: Principal;
  user: UserRef;
  /** The session id for the cookie; never stored or logged. */
  secret: string;
  expires_at: string;
  /** The session's absolute lifetime, the cookie's Max-Age. */
  maxAgeSeconds: number;
}

/**
 * Authentication and roles: users, login sessions, API tokens, login
 * throttling, and the authenticator and request guards the HTTP app runs.
 */
export class AuthService {
  readonly users: UserDirectory;
  readonly sessions: SessionStore;
  readonly tokens: TokenStore;
  readonly limits: LoginLimits;
  readonly hasher: PasswordHasher;
  readonly refusalDelay: RefusalDelay;
  readonly hosts: HostAllowlist;
  readonly authenticator: SessionAndTokenAuthenticator;
  /** Run on every request before authentication. */
  readonly guards: readonly RequestGuard[];
  /** Cookies get the Secure flag when the server speaks HTTPS. */
  readonly secureCookies: boolean;
  private readonly events: EventLog;

  private constructor(options: AuthServiceOptions) {
    const now = options.now ?? (() => new Date());
    this.sessions = new SessionStore(options.store, { now, ...(options.sessionLimits ? { limits: options.sessionLimits } : {}) });
    this.hasher = new PasswordHasher(options.hasher);
    this.users = new UserDirectory(options.store, this.sessions, now, this.hasher);
    this.tokens = new TokenStore(options.store, now);
    this.limits = new LoginLimits(options.throttle);
    this.refusalDelay = new RefusalDelay(options.refusalDelay);
    this.hosts = new HostAllowlist(options.extraHosts ? { extraHosts: options.extraHosts } : {});
    this.authenticator = new SessionAndTokenAuthenticator(this.users, this.sessions, this.tokens);
    this.guards = [createHostGuard(this.hosts)];
    this.secureCookies = Boolean(options.config.tlsCert && options.config.tlsKey);
    this.events = options.events;
  }

  /** Opens the auth state: prunes expired sessions and creates the first admin when there is no user. */
  static async create(options: AuthServiceOptions): Promise<AuthService> {
    const service = new AuthService(options);
    await service.sessions.prune();
    await ensureInitialAdmin({
      users: service.users,
      dataDir: options.config.dataDir,
      password: options.config.adminPassword,
      log: options.log.scope('auth'),
    });
    return service;
  }

  /**
   * Checks credentials and opens a session. Unknown user, wrong password and
   * disabled user fail alike (401, one message). Attempts past a throttle
   * (per username+IP, per source, global) or while too many hashes wait get
   * 429 with Retry-After, before any hashing, held for a moment first
   * (RefusalDelay; docs/auth.md).
   */
  async login(input: LoginInput): Promise<LoginResult> {
    let attempt: LoginAttempt;
    try {
      attempt = this.limits.admit(input.username, input.ip);
    } catch (err) {
      await this.refusalDelay.hold();
      throw err;
    }
    let user: UserRow | null;
    try {
      user = await this.users.verifyCredentials(input.username, input.password);
    } catch (err) {
      attempt.abandoned();
      if (isAppError(err) && err.code === 'RATE_LIMITED') await this.refusalDelay.hold();
      throw err;
    }
    if (!user) {
      const { locked } = attempt.failed();
      this.events.emit({
        kind: 'auth.login_failed',
        level: 'warn',
        message: `failed login for "${input.username.slice(0, 64)}"${locked ? '; further attempts are refused for a while' : ''}`,
        ip: input.ip,
        detail: { username: input.username.slice(0, 64), locked },
      });
      throw new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS);
    }
    attempt.succeeded();
    const opened = await this.sessions.create(user.id, { ip: input.ip, userAgent: input.userAgent ?? null });
    await this.users.recordLogin(user.id);
    this.events.emit({
      kind: 'auth.login',
      message: `user "${user.username}" logged in`,
      ip: input.ip,
      detail: { user_id: user.id, username: user.username, role: user.role },
    });
    return {
      principal: { kind: 'user', user_id: user.id, username: user.username, role: user.role, session_id: String(opened.session.id) },
      user: { id: user.id, username: user.username, role: user.role },
      secret: opened.secret,
      expires_at: nowIso(opened.expiresAt),
      maxAgeSeconds: this.sessions.limits.absoluteMs / 1000,
    };
  }

  /**
   * Ends the caller's session; returns whether one was revoked. API tokens
   * and the desktop user have no session: for them this changes nothing.
   */
  async logout(principal: Principal, ip: string): Promise<boolean> {
    if (principal.session_id === undefined) return false;
    const revoked = await this.sessions.revoke(Number(principal.session_id));
    if (revoked) {
      this.events.emit({
        kind: 'auth.logout',
        message: `user "${principal.username}" logged out`,
        ip,
        detail: { user_id: principal.user_id, username: principal.username },
      });
    }
    return revoked;
  }

  /** What GET /auth/session reports for a principal. */
  describe(principal: Principal): SessionInfo {
    const user: UserRef = { id: principal.user_id, username: principal.username, role: principal.role };
    if (principal.kind === 'local') return { authenticated: true, user, role: principal.role, expires_at: null, via: 'local' };
    if (principal.kind === 'token') {
      const token = principal.token_id === undefined ? undefined : this.tokens.row(principal.token_id);
      return { authenticated: true, user, role: principal.role, expires_at: token?.expires_at ?? null, via: 'token' };
    }
    const session = principal.session_id === undefined ? undefined : this.sessions.get(Number(principal.session_id));
    return { authenticated: true, user, role: principal.role, expires_at: session ? nowIso(this.sessions.expiresAt(session)) : null, via: 'session' };
  }
}
