import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/api-error.js';

export interface QueryClientOptions {
  /** Retry failed reads that may succeed later (no answer, 5xx); off in component tests. */
  retry?: boolean;
}

/** A 4xx will answer the same next time: only "no answer" and server errors are worth a retry. */
export function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.status === 0 || error.status >= 500);
}

/**
 * The cache of server data. Reads stay fresh for a few seconds (pages that
 * share a list share one request); the live event stream invalidates what an
 * event changed (live-invalidation.ts), so long stale times are not needed.
 */
export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  const retry = options.retry ?? true;
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (failures, error) => retry && failures < 2 && isTransient(error),
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
