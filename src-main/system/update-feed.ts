import semver from 'semver';
import { AppError } from '../core/errors.js';
import { upstreamError } from './upstream-error.js';

/**
 * The update feed: a JSON document at `general.update_feed_url` describing the
 * newest release. Unknown fields are ignored so the feed can grow.
 *
 *   {"version": "1.2.0", "url": "https://…/bootwright-1.2.0.AppImage",
 *    "sha256": "<64 hex>", "notes": "…", "published_at": "2025-01-31T12:00:00Z"}
 */
export interface UpdateFeed {
  version: string;
  /** Absolute http(s) URL of the release file (a relative `url` is resolved against the feed URL). */
  url: string;
  /** Lowercase hex SHA-256 of the release file. */
  sha256: string;
  notes: string | null;
  published_at: string | null;
}

/** Feeds are small; anything larger is not a feed. */
export const MAX_FEED_BYTES = 1024 * 1024;
const MAX_NOTES_CHARS = 64 * 1024;

/** Fetches and validates the feed; every failure is UPSTREAM_FAILED (502) and none takes longer than `timeoutMs`. */
export async function fetchUpdateFeed(feedUrl: string, timeoutMs: number): Promise<UpdateFeed> {
  let text: string;
  try {
    const response = await fetch(feedUrl, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
      redirect: 'follow',
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppError('UPSTREAM_FAILED', `update feed answered HTTP ${response.status}`);
    }
    text = await readLimited(response, MAX_FEED_BYTES);
  } catch (err) {
    throw upstreamError('update feed', err, timeoutMs);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('UPSTREAM_FAILED', 'update feed is not valid JSON');
  }
  return parseUpdateFeed(json, feedUrl);
}

/** Validates a parsed feed document. */
export function parseUpdateFeed(json: unknown, feedUrl: string): UpdateFeed {
  const bad = (message: string) => new AppError('UPSTREAM_FAILED', `update feed is invalid: ${message}`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('expected a JSON object');
  const doc = json as Record<string, unknown>;
  if (typeof doc.version !== 'string' || semver.valid(doc.version) === null) {
    throw bad('"version" must be a semantic version such as 1.2.0');
  }
  if (typeof doc.url !== 'string' || doc.url === '') throw bad('"url" must be a non-empty string');
  let url: URL;
  try {
    url = new URL(doc.url, feedUrl);
  } catch {
    throw bad(`"url" ${JSON.stringify(doc.url)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('"url" must be an http:// or https:// URL');
  if (typeof doc.sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(doc.sha256)) throw bad('"sha256" must be 64 hexadecimal digits');
  const notes = optionalString(doc.notes, 'notes', MAX_NOTES_CHARS, bad);
  const published = optionalString(doc.published_at, 'published_at', 64, bad);
  return { version: semver.clean(doc.version) ?? doc.version, url: url.href, sha256: doc.sha256.toLowerCase(), notes, published_at: published };
}

/** True when `latest` is a newer release than `current` (semver precedence, SemVer 2.0.0 §11). */
export function isNewer(latest: string, current: string): boolean {
  return semver.gt(latest, current);
}

function optionalString(value: unknown, name: string, max: number, bad: (message: string) => AppError): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw bad(`"${name}" must be a string of at most ${max} characters`);
  return value;
}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > maxBytes) {
        throw new AppError('UPSTREAM_FAILED', `update feed is larger than ${maxBytes} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}
