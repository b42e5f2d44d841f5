import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { API_PREFIX, registeredRoutes } from '../core/http-kit/route-table.js';
import { describeAuditAction, type AuditAction } from './audit-action.js';
import type { AuditLog } from './audit-log.js';
import type { AuditDetail, AuditInput } from './audit-types.js';
import { auditSubject, type AuditSubject } from './audit-subject.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a route that wants more than the action on its audit row (e.g. old and new root); see AuditEntry.detail. */
    auditDetail: AuditDetail | null;
    /** The object a successful change answered with (audit-subject.ts): its id and name for the audit row. */
    auditSubject: AuditSubject | null;
  }
}

/** The methods that change something; only these are audited. */
export const AUDITED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one route whose audited user comes from the body: who tried to log in. */
const LOGIN_ROUTE = `${API_PREFIX}/auth/login`;
const MAX_USER_LENGTH = 64;
const MAX_DETAIL_KEYS = 8;
const MAX_DETAIL_LENGTH = 1024;

/**
 * Records every mutating API request, whatever its outcome, once the response
 * is out (an onResponse hook: it never delays or changes the answer).
 * Requests without valid credentials are recorded as unauthenticated, which
 * AuditLog aggregates per source and minute and bounds apart. Wrapped
 * in fastify-plugin so the hook lands on the /api/v1 scope itself and covers
 * the routes of every plugin registered after it; it is the audit area's
 * hook (AreaParts.hooks), registered before every route.
 */
export function auditHookPlugin(ctx: { audit: AuditLog; log: Logger }): FastifyPluginAsync {
  const log = ctx.log.scope('audit');
  return fp(
    async (app) => {
      app.decorateRequest('auditDetail', null);
      app.decorateRequest('auditSubject', null);
      // Route table questions are answered once per pattern: it is fixed after startup.
      const collections = new Map<string, boolean>();
      const isCollection = (pattern: string): boolean => {
        let answer = collections.get(pattern);
        if (answer === undefined) {
          const full = `${API_PREFIX}${pattern}`;
          answer = registeredRoutes(app).some(
            (route) => (route.method === 'GET' && route.url === full) || route.url.startsWith(`${full}/:`),
          );
          collections.set(pattern, answer);
        }
        return answer;
      };

      // The changed object's id and name, from the answer (the hook only reads it).
      app.addHook('onSend', async (request, reply, payload) => {
        if (AUDITED_METHODS.has(request.method) && reply.statusCode < 400) request.auditSubject = auditSubject(payload);
        return payload;
      });

      app.addHook('onResponse', async (request, reply) => {
        if (!AUDITED_METHODS.has(request.method)) return;
        // Machines' runtime calls (netboot callbacks) are events, like /boot/ fetches; their paths carry tokens.
        if (request.routeOptions.config.machineRuntime === true) return;
        const routeUrl = request.routeOptions.url;
        if (routeUrl === undefined || !routeUrl.startsWith(`${API_PREFIX}/`)) return;
        const pattern = routeUrl.slice(API_PREFIX.length);
        const params = (request.params ?? {}) as Record<string, unknown>;
        const named = describeAuditAction(request.method, pattern, params, isCollection);
        try {
          await ctx.audit.record({ ...auditInput(request, reply, named), route: routeUrl });
        } catch (err) {
          log.error(`could not record the audit entry of ${request.method} ${pattern}: ${errorMessage(err)}`, { request_id: request.id });
        }
      });
    },
    { name: 'bootwright-audit', fastify: '5.x' },
  );
}

function auditInput(request: FastifyRequest, reply: FastifyReply, named: AuditAction): AuditInput {
  const status = reply.statusCode;
  // A failed login is unauthenticated whatever cookie came with it: its user is text the client chose.
  const failedLogin = request.routeOptions.url === LOGIN_ROUTE && status >= 400;
  return {
    authenticated: Boolean(request.principal) && !failedLogin,
    user: auditUser(request),
    via: request.viaIpc ? 'ipc' : 'http',
    remote_address: request.viaIpc ? null : request.ip,
    method: request.method,
    path: (request.url.split('?')[0] ?? request.url).slice(0, 1024),
    action: named.action,
    resource_type: named.resource_type,
    // A create names no id in its path: the new object's id comes from the answer.
    resource_id: named.resource_id ?? request.auditSubject?.id ?? null,
    outcome: status < 400 ? 'success' : 'failure',
    status,
    request_id: request.id,
    ...auditDetailOf(request),
  };
}

/** The route's own detail, plus the changed object's name when the answer gave one. */
function auditDetailOf(request: FastifyRequest): { detail?: AuditDetail } {
  const name = request.auditSubject?.name ?? null;
  if (request.auditDetail === null && name === null) return {};
  return { detail: cleanDetail({ ...(name !== null ? { name } : {}), ...(request.auditDetail ?? {}) }) };
}

/** Bounded, printable values: a detail may quote client text (an attempted path). */
function cleanDetail(detail: AuditDetail): AuditDetail {
  const out: AuditDetail = {};
  for (const [key, value] of Object.entries(detail).slice(0, MAX_DETAIL_KEYS)) {
    out[key] = value === null ? null : value.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).slice(0, MAX_DETAIL_LENGTH);
  }
  return out;
}

/** The principal's name; for a login, the name tried (the body is read for that one field only). */
function auditUser(request: FastifyRequest): string {
  if (request.routeOptions.url === LOGIN_ROUTE) {
    const body = request.body;
    if (typeof body === 'object' && body !== null && 'username' in body) {
      const username = (body as { username: unknown }).username;
      if (typeof username === 'string') {
        const clean = username.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_USER_LENGTH);
        if (clean !== '') return clean;
      }
    }
  }
  return request.principal?.username ?? 'anonymous';
}
