/** A field-level problem as the API reports it in `details`. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * Codes the client itself produces when there is no API answer to read: the
 * server could not be reached, or answered something that is not the API's
 * JSON envelope (a proxy error page, a crashed IPC handler).
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'BAD_RESPONSE';

export interface ApiErrorInit {
  /** HTTP status; 0 when no response arrived. */
  status: number;
  /** A server error code (VALIDATION_FAILED, NOT_FOUND, …) or a ClientErrorCode. */
  code: string;
  message: string;
  details?: FieldError[] | undefined;
  /** `details` as the server sent them, for answers whose details are not field errors (a store import's conflicts). */
  rawDetails?: readonly unknown[] | undefined;
  /** Seconds from Retry-After, when the server sent one (throttled login). */
  retryAfterSeconds?: number | null | undefined;
}

/** Every failed API call, whichever transport carried it, rejects with this. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldError[];
  readonly rawDetails: readonly unknown[];
  readonly retryAfterSeconds: number | null;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.rawDetails = init.rawDetails ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** A message fit to show for any thrown value. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
