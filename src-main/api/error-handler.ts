import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CATALOGUE, type ErrorCode, type FieldError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { PRINTABLE_TEXT_MESSAGE, PRINTABLE_TEXT_PATTERN } from '../core/printable-text.js';
import { foldUnionErrors, schemaErrorMessage, type SchemaError } from '../core/http-kit/schema-errors.js';

type AjvError = SchemaError;

/** The JSON body of every failed API request. */
export interface ErrorBody {
  success: false;
  error: string;
  code: ErrorCode;
  details?: FieldError[];
  request_id?: string;
}

/** Fastify's own error codes mapped to the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
};

export function errorBody(code: ErrorCode, message: string, details?: FieldError[], requestId?: string): ErrorBody {
  const body: ErrorBody = { success: false, error: message, code };
  if (details && details.length > 0) body.details = details;
  if (requestId) body.request_id = requestId;
  return body;
}

/** Maps ajv errors to field errors that name the field the way a client sent it. */
export function fieldErrors(context: string, errors: readonly AjvError[]): FieldError[] {
  return foldUnionErrors(errors).map((error) => {
    const base = [context, ...error.instancePath.split('/').filter(Boolean)].join('.');
    if (error.keyword === 'additionalProperties') {
      return { field: `${base}.${String(error.params.additionalProperty)}`, message: 'unknown field' };
    }
    if (error.keyword === 'required') {
      return { field: `${base}.${String(error.params.missingProperty)}`, message: 'is required' };
    }
    if (error.keyword === 'pattern' && error.params.pattern === PRINTABLE_TEXT_PATTERN) return { field: base, message: PRINTABLE_TEXT_MESSAGE };
    return { field: base, message: schemaErrorMessage(error) };
  });
}

/**
 * The one error handler: every thrown error becomes the error envelope. A 500
 * never shows internals; it is logged with the request id, which the client
 * also gets (header X-Request-Id and `request_id`).
 */
export function createErrorHandler(log: Logger) {
  return (error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send(errorBody(error.code, error.message, error.details));
    }
    if (error.validation) {
      const details = fieldErrors(error.validationContext ?? 'body', error.validation);
      const first = details[0];
      const message = first
        ? `${first.field}: ${first.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`
        : 'invalid request';
      return reply.code(400).send(errorBody('VALIDATION_FAILED', message, details));
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) {
      const status = ERROR_CATALOGUE[mapped].status;
      return reply.code(status).send(errorBody(mapped, describeFastifyError(mapped, error)));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      const code: ErrorCode = error.statusCode === 404 ? 'NOT_FOUND' : error.statusCode === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST';
      return reply.code(error.statusCode).send(errorBody(code, error.message));
    }
    log.error(`unhandled error in ${request.method} ${request.url}`, { request_id: request.id, error });
    return reply
      .code(500)
      .send(errorBody('INTERNAL', `internal error; the server log has details under request id ${request.id}`, undefined, request.id));
  };
}

function describeFastifyError(code: ErrorCode, error: FastifyError): string {
  switch (code) {
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 'request body must be JSON with header Content-Type: application/json';
    case 'PAYLOAD_TOO_LARGE':
      return 'request body is larger than the 1 MiB limit';
    case 'MALFORMED_JSON':
      return `request body is not valid JSON: ${error.message}`;
    default:
      return error.message;
  }
}
