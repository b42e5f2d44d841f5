/**
 * The one catalogue of coded errors. Every error the API returns carries one
 * of these codes; docs/api.md lists them and a test checks the two agree.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, summary: 'A field is missing, unknown or has an invalid value' },
  MALFORMED_JSON: { status: 400, summary: 'The request body is not valid JSON' },
  BAD_REQUEST: { status: 400, summary: 'The request cannot be processed as sent' },
  UNAUTHENTICATED: { status: 401, summary: 'No valid session cookie or API token' },
  FORBIDDEN: { status: 403, summary: 'The caller\'s role does not allow this operation' },
  CSRF_REJECTED: { status: 403, summary: 'A cookie-authenticated unsafe request did not come from the same origin' },
  HOST_REJECTED: { status: 403, summary: 'The Host header names none of this server\'s names or addresses' },
  NOT_FOUND: { status: 404, summary: 'The resource does not exist' },
  ROUTE_NOT_FOUND: { status: 404, summary: 'No API route has this path' },
  METHOD_NOT_ALLOWED: { status: 405, summary: 'The path exists but not with this method (see the Allow header)' },
  CONFLICT: { status: 409, summary: 'The request conflicts with existing data (a duplicate)' },
  INVALID_STATE: { status: 409, summary: 'The operation is not valid in the resource\'s current state' },
  GONE: { status: 410, summary: 'The resource existed but is no longer available (a finished or expired install task)' },
  PAYLOAD_TOO_LARGE: { status: 413, summary: 'The body exceeds the size limit' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, summary: 'The body is not application/json' },
  RATE_LIMITED: { status: 429, summary: 'Too many requests; retry after the Retry-After header' },
  INTERNAL: { status: 500, summary: 'An unexpected error; the log has details under the request id' },
  UPSTREAM_FAILED: { status: 502, summary: 'A remote service (update feed, BMC) failed or did not answer in time' },
  UNAVAILABLE: { status: 503, summary: 'The server is starting or stopping, or a bounded work queue is full (template renders); retry shortly' },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One field-level problem, as returned in `details`. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error that knows its API code. Domain modules throw these; the REST and
 * IPC layers turn them into the error envelope.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export function notFound(resource: string, id: string | number): AppError {
  return new AppError('NOT_FOUND', `${resource} ${String(id)} not found`);
}

export function conflict(message: string, details?: FieldError[]): AppError {
  return new AppError('CONFLICT', message, details ? { details } : {});
}

export function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { details: [{ field, message }] });
}

/** One VALIDATION_FAILED naming the first bad field, with every one in `details` (at least one). */
export function validationError(errors: FieldError[]): AppError {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new AppError('VALIDATION_FAILED', `${first!.field}: ${first!.message}${more}`, { details: errors });
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** A message safe to show for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
