import { isIP } from 'node:net';

/*
 * One bounded GET of a feed file: Node's fetch (undici) with one deadline for
 * connecting, headers and body (AbortSignal.timeout), a byte cap checked
 * while reading, and no redirects (a feed answers at the URL it is
 * configured with, so a redirect cannot lead a verified feed elsewhere).
 */

/** Largest index a feed may serve; items are smaller still. */
export const MAX_INDEX_BYTES = 1024 * 1024;
export const MAX_ITEM_BYTES = 2 * 1024 * 1024;

export class FeedFetchError extends Error {
  override name = 'FeedFetchError';
}

/** Whether `host` (URL hostname) is a loopback address: the one place plain http:// is allowed (tests, a local mirror). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** Why `url` may not be a feed URL, or null when it may: https, or http to a loopback address; no credentials in it. */
export function feedUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.username || parsed.password) return 'must not carry credentials';
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  return 'must be https:// (plain http:// only to a loopback address)';
}

/** GETs `url` within `timeoutMs`, at most `maxBytes`; throws FeedFetchError saying what went wrong. */
export async function fetchBounded(url: string, timeoutMs: number, maxBytes: number): Promise<Buffer> {
  const problem = feedUrlProblem(url);
  if (problem) throw new FeedFetchError(`${url} ${problem}`);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'error', headers: { accept: 'application/json, application/yaml, text/plain, */*' } });
  } catch (err) {
    throw new FeedFetchError(`${url}: ${describeFetchError(err, timeoutMs)}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new FeedFetchError(`${url} answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new FeedFetchError(`${url} is ${declared} bytes, more than the ${maxBytes} allowed`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    const reader = response.body?.getReader();
    if (!reader) return Buffer.alloc(0);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new FeedFetchError(`${url} sent more than the ${maxBytes} bytes allowed`);
      }
      chunks.push(Buffer.from(value));
    }
  } catch (err) {
    if (err instanceof FeedFetchError) throw err;
    throw new FeedFetchError(`${url}: ${describeFetchError(err, timeoutMs)}`);
  }
  return Buffer.concat(chunks);
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `no complete answer within ${timeoutMs / 1000} s`;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : null;
  const code = cause && 'code' in cause ? String((cause as { code: unknown }).code) : null;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (cause) return cause.message;
  return err instanceof Error ? err.message : String(err);
}
