import type { Role } from '../core/http-kit/access.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import { conflict, invalid, notFound } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { randomSecret, secretDigest } from './secrets.js';

/** Every API token starts with this, so leaked tokens are recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'bwt_';
import { TOKEN_NAME_MAX_LENGTH } from './auth-contract.js';

export { TOKEN_NAME_MAX_LENGTH };

/** An API token as stored in the `auth` file (collection `tokens`): the secret only as its SHA-256. */
export interface TokenRow {
  id: number;
  name: string;
  role: Role;
  digest: string;
  /** The prefix and first characters of the token, to tell tokens apart in lists. */
  hint: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type PublicToken = Omit<TokenRow, 'digest'>;

export interface NewToken {
  name: string;
  role: Role;
  expires_at?: string | null;
}

const SORTABLE = ['id', 'name', 'role', 'created_at', 'expires_at', 'last_used_at'] as const;
/** last_used_at is written at most this often per token. */
const LAST_USED_INTERVAL_MS = 60 * 1000;

export function toPublicToken(row: TokenRow): PublicToken {
  const { digest: _secret, ...rest } = row;
  return rest;
}

/** API tokens for scripts and integrations (sent as `Authorization: Bearer <token>`). */
export class TokenStore {
  private readonly rows: Collection<TokenRow>;
  private readonly now: () => Date;

  constructor(store: Store, now: () => Date = () => new Date()) {
    this.rows = store.collection<TokenRow>('tokens', 'auth');
    this.now = now;
  }

  list(query: ListQueryInput): ListPage<PublicToken> {
    return paginate(this.rows.all().map(toPublicToken), query, {
      sortable: SORTABLE,
      defaultSort: 'id',
      searchText: (token) => [token.name, token.role, token.hint, token.created_by],
    });
  }

  /** The stored row (with digest); undefined when absent. */
  row(id: number): TokenRow | undefined {
    return this.rows.get(id);
  }

  get(id: number): PublicToken {
    const row = this.rows.get(id);
    if (!row) throw notFound('token', id);
    return toPublicToken(row);
  }

  /** Creates a token; the returned `secret` is shown to the caller once and never again. */
  async create(input: NewToken, createdBy: string | null): Promise<{ token: PublicToken; secret: string }> {
    const name = input.name.trim();
    if (name.length === 0) throw invalid('body.name', 'must not be blank');
    const expiresAt = input.expires_at ?? null;
    const now = this.now();
    if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) throw invalid('body.expires_at', 'must be in the future');
    const wanted = name.toLowerCase();
    if (this.rows.find((row) => row.name.toLowerCase() === wanted)) {
      throw conflict(`a token named "${name}" already exists`, [{ field: 'body.name', message: 'already exists' }]);
    }
    const secret = `${TOKEN_PREFIX}${randomSecret(32)}`;
    const row = await this.rows.insert(
      {
        name,
        role: input.role,
        digest: secretDigest(secret),
        hint: secret.slice(0, TOKEN_PREFIX.length + 4),
        expires_at: expiresAt === null ? null : nowIso(new Date(expiresAt)),
        last_used_at: null,
        created_by: createdBy,
      },
      now,
    );
    return { token: toPublicToken(row), secret };
  }

  async revoke(id: number): Promise<PublicToken> {
    const row = await this.rows.remove(id);
    if (!row) throw notFound('token', id);
    return toPublicToken(row);
  }

  /** The live token for a bearer value, or null; records last_used_at (at most once a minute). */
  async resolve(secret: string): Promise<TokenRow | null> {
    if (!secret.startsWith(TOKEN_PREFIX)) return null;
    const digest = secretDigest(secret);
    const row = this.rows.find((token) => token.digest === digest);
    if (!row) return null;
    const now = this.now();
    if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return null;
    if (row.last_used_at === null || now.getTime() - Date.parse(row.last_used_at) >= LAST_USED_INTERVAL_MS) {
      return (await this.rows.update(row.id, { last_used_at: nowIso(now) }, now)) ?? null;
    }
    return row;
  }
}
