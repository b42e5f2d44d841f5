import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifySchemaCompiler, type FastifyPluginAsync, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import FindMyWay from 'find-my-way';
import secureJson from 'secure-json-parse';
import { AppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { LOCAL_PRINCIPAL, roleAllows, type Authenticator } from '../core/http-kit/access.js';
import { integerParamNames, pathIntegerErrors } from '../core/http-kit/path-integers.js';
import { API_PREFIX, REGISTERED_ROUTES_KEY, type RegisteredRoute, type RequestGuard } from '../core/http-kit/route-table.js';
import { ErrorEnvelope } from '../core/http-kit/schemas.js';
import { createErrorHandler, errorBody } from './error-handler.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Header that carries the per-process IPC secret on injected requests. */
export const IPC_HEADER = 'x-bootwright-ipc';

/** Content-Security-Policy of the web UI: nothing but our own origin. */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

export type ApiApp = FastifyInstance;

export interface HttpAppOptions {
  log: Logger;
  authenticator: Authenticator;
  /** Per-process random secret that marks requests injected by the IPC bridge. */
  ipcSecret: string;
  /** Built web UI (index.html and assets); served with SPA fallback when present. */
  rendererDir?: string | null;
  /** Route plugins, each registered under /api/v1. */
  apiPlugins: readonly FastifyPluginAsync[];
  /** Plugins registered at the root, outside the prefix (boot files, /metrics). */
  rootPlugins?: readonly FastifyPluginAsync[];
  guards?: readonly RequestGuard[];
  https?: { cert: Buffer; key: Buffer } | null;
  version: string;
}

/**
 * Builds the HTTP server: REST API under /api/v1 (the same route table the IPC
 * bridge injects into), the OpenAPI document, the web UI with SPA fallback.
 */
export async function buildHttpApp(options: HttpAppOptions): Promise<ApiApp> {
  const serverOptions: FastifyServerOptions = {
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    forceCloseConnections: true,
    return503OnClosing: true,
    ajv: { customOptions: {} },
    // A path the router cannot decode (bad %-escapes) or with a segment over maxParamLength never reaches the
    // error handler; without this fastify answers in its own shape instead of the error envelope.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a path segment is longer than 256 characters'
          : `the request path cannot be decoded: ${request.url.slice(0, 200)}`;
      void (reply as FastifyReply).code(400).send(errorBody('BAD_REQUEST', message));
    },
  };
  // The HTTPS variant has another server type; the routes do not care which.
  const app = (
    options.https
      ? Fastify({ ...serverOptions, https: { cert: options.https.cert, key: options.https.key } } as FastifyServerOptions)
      : Fastify(serverOptions)
  ).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;

  installValidators(app);
  installJsonParser(app);
  // Registered before the access hook: its onRequest hook parses cookies, which the authenticator reads.
  await app.register(fastifyCookie);

  const routes: RegisteredRoute[] = [];
  const router = FindMyWay();
  app.decorate(REGISTERED_ROUTES_KEY, routes);
  app.decorateRequest('principal', null);
  app.decorateRequest('viaIpc', false);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const isApi = route.url.startsWith(`${API_PREFIX}/`) || route.url === API_PREFIX;
    if (isApi && route.config?.access === undefined) {
      throw new Error(`route ${methods.join(',')} ${route.url} does not declare its access (config.access)`);
    }
    for (const method of methods) {
      if (method === 'HEAD' && route.url !== '/') continue;
      routes.push({ method, url: route.url });
      router.on(method as 'GET', route.url, () => undefined);
    }
    if (isApi && route.schema) {
      // Every API route answers errors with the envelope; say so in the document.
      const response = (route.schema.response ?? {}) as Record<string, unknown>;
      response['4xx'] ??= ErrorEnvelope;
      response['5xx'] ??= ErrorEnvelope;
      route.schema.response = response;
      if (route.config?.access !== 'public') route.schema.security ??= [{ session: [] }, { bearer: [] }];
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    for (const guard of options.guards ?? []) await guard(request);
    request.viaIpc = isIpcRequest(request, options.ipcSecret);
    const access = request.routeOptions.config.access;
    request.principal = request.viaIpc ? LOCAL_PRINCIPAL : await options.authenticator.authenticate(request);
    if (access === undefined || access === 'public') return;
    if (!request.principal) throw new AppError('UNAUTHENTICATED', 'authentication required: log in (POST /api/v1/auth/login) or send an API token');
    if (!roleAllows(request.principal.role, access)) {
      throw new AppError('FORBIDDEN', `this operation needs the ${access} role; you are ${request.principal.role}`);
    }
  });

  app.setErrorHandler(createErrorHandler(options.log.scope('http')));

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith('/api/')) {
      const allowed = allowedMethods(router, url);
      if (allowed.length > 0) {
        return reply
          .code(405)
          .header('allow', allowed.join(', '))
          .send(errorBody('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url}; allowed: ${allowed.join(', ')}`));
      }
      return reply.code(404).send(errorBody('ROUTE_NOT_FOUND', `no API route ${request.method} ${url}`));
    }
    if (options.rendererDir && (request.method === 'GET' || request.method === 'HEAD')) {
      // Deep links (/services/dns) load the single-page app, which routes on the client.
      return reply.header('content-security-policy', RENDERER_CSP).header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).type('text/plain').send('not found\n');
  });

  await app.register(fastifySwagger, {
    // Shared schemas are named by their $id (components/schemas/DnsRecord), not by the order the routes
    // that use them were registered in (def-13): names stay stable when areas are added or reordered.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bootwright API',
        version: options.version,
        description: 'REST API v1 of Bootwright, the portable network boot server. Conventions: docs/api.md.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'bootwright_session' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });

  await app.register(
    async (api) => {
      api.get(
        '/openapi.json',
        { config: { access: 'public' }, schema: { hide: true } },
        async () => app.swagger(),
      );
      for (const plugin of options.apiPlugins) await api.register(plugin);
    },
    { prefix: API_PREFIX },
  );
  for (const plugin of options.rootPlugins ?? []) await app.register(plugin);

  if (options.rendererDir && existsSync(path.join(options.rendererDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: options.rendererDir,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        if (filePath.endsWith('.html')) res.header('content-security-policy', RENDERER_CSP);
        // Hashed asset names never change content; index.html must revalidate.
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('content-security-policy', RENDERER_CSP).header('cache-control', 'no-cache').sendFile('index.html'),
    );
  }

  return app;
}

function isIpcRequest(request: FastifyRequest, secret: string): boolean {
  const header = request.headers[IPC_HEADER];
  if (typeof header !== 'string' || header !== secret) return false;
  // Injected requests have no real socket: a header alone over the network never counts.
  return !(request.raw.socket instanceof Socket);
}

function allowedMethods(router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>, url: string): string[] {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const allowed = methods.filter((method) => router.find(method as 'GET', url) !== null);
  if (allowed.includes('GET')) allowed.push('HEAD');
  return allowed;
}

/**
 * Bodies are validated strictly (no type coercion, unknown fields rejected by
 * the schemas); query strings and path params are text on the wire, so they
 * are coerced to the schema's types, except that integers (path params and
 * query parameters) must be canonical decimal first (core/http-kit/path-integers.ts).
 */
function installValidators(app: FastifyInstance): void {
  // strict: false (TypeBox emits keywords ajv does not know) would also turn strictNumbers off, and a JSON
  // number like 1e400 parses to Infinity, which ajv then takes as an integer; keep NaN/Infinity out.
  const common = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, strictNumbers: true } as const;
  const bodyAjv = new Ajv({ ...common, coerceTypes: false });
  const textAjv = new Ajv({ ...common, coerceTypes: 'array' });
  addFormats.default(bodyAjv);
  addFormats.default(textAjv);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return bodyAjv.compile(schema);
    const validate = textAjv.compile(schema);
    // Path ids and query integers (page, size, profile_id…) must be canonical before ajv's coercion turns "28.0" or "+24" into a number.
    const integers = httpPart === 'params' || httpPart === 'querystring' ? integerParamNames(schema) : [];
    if (integers.length === 0) return validate;
    const strict: ReturnType<FastifySchemaCompiler<unknown>> = (data: unknown) => {
      const errors = pathIntegerErrors(integers, data);
      if (errors.length > 0) {
        strict.errors = errors;
        return false;
      }
      const ok = validate(data);
      strict.errors = validate.errors ?? null;
      return ok;
    };
    return strict;
  });
}

/**
 * JSON is the only body type the API accepts (415 for others); an empty JSON
 * body is treated as no body so body-less actions work with any client.
 */
function installJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      done(new AppError('MALFORMED_JSON', `request body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
}
