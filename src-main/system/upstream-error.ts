import { AppError, errorMessage } from '../core/errors.js';

/**
 * A failed fetch as the UPSTREAM_FAILED error (502) with a cause a person can
 * act on: timed out, refused, name not found, or the upstream's status.
 */
export function upstreamError(what: string, err: unknown, timeoutMs: number): AppError {
  if (err instanceof AppError) return err;
  const name = (err as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new AppError('UPSTREAM_FAILED', `${what} did not answer within ${formatSeconds(timeoutMs)}`, { cause: err });
  }
  // undici reports network failures as TypeError('fetch failed') with the system error as cause.
  const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
  const reason = cause?.code ?? cause?.message ?? errorMessage(err);
  return new AppError('UPSTREAM_FAILED', `${what} is unreachable: ${reason}`, { cause: err });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
