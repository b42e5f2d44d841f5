import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { ErrorEnvelope, Ok, StrictObject } from '../core/http-kit/schemas.js';
import type { Metrics } from '../metrics/metrics.js';
import { METRICS_FORMATS, MetricsHistoryQuerySchema, MetricsHistorySchema, MetricsSnapshotSchema } from './system-contract.js';
import type { MetricsHistory } from './metrics-history.js';

const MetricsQuery = StrictObject({
  format: Type.Optional(Type.Enum([...METRICS_FORMATS], { description: 'Overrides the Accept header' })),
});

type Format = (typeof METRICS_FORMATS)[number];

/** What http-app adds to every protected /api/v1 route: a session cookie or a bearer token. */
const ROOT_SECURITY: { [label: string]: string[] }[] = [{ session: [] }, { bearer: [] }];

/** The API plugin's routes get the error responses and security from the app; the root route states them itself. */
function metricsRouteOptions(summary: string, root: boolean) {
  return {
    config: { access: 'viewer' as const },
    schema: {
      tags: ['status'],
      summary,
      querystring: MetricsQuery,
      ...(root ? { security: ROOT_SECURITY } : {}),
      response: {
        ...(root ? { '4xx': ErrorEnvelope, '5xx': ErrorEnvelope } : {}),
        200: {
          content: {
            'application/json': { schema: Ok(MetricsSnapshotSchema) },
            'text/plain': { schema: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) },
          },
        },
      },
    },
  };
}

/**
 * `?format=` decides; else an Accept header that asks for text (Prometheus
 * sends text/plain or application/openmetrics-text, never JSON) gets text.
 */
function chooseFormat(request: FastifyRequest<{ Querystring: Static<typeof MetricsQuery> }>, fallback: Format): Format {
  if (request.query.format) return request.query.format;
  const accept = (request.headers.accept ?? '').toLowerCase();
  if (accept.includes('application/json')) return 'json';
  if (accept.includes('text/plain') || accept.includes('application/openmetrics-text')) return 'prometheus';
  return fallback;
}

function metricsHandler(metrics: Metrics, fallback: Format) {
  return async (request: FastifyRequest<{ Querystring: Static<typeof MetricsQuery> }>, reply: FastifyReply) => {
    if (chooseFormat(request, fallback) === 'prometheus') {
      return reply.type(metrics.prometheusContentType).send(await metrics.prometheus());
    }
    return { success: true as const, data: await metrics.snapshot() };
  };
}

/** GET /api/v1/metrics: a JSON snapshot unless Prometheus text is asked for; GET /api/v1/metrics/history: the charts over time. */
export const metricsRoutes = (metrics: Metrics, history: Pick<MetricsHistory, 'view'>): FastifyPluginAsync => async (app) => {
  app.get<{ Querystring: Static<typeof MetricsHistoryQuerySchema> }>(
    '/metrics/history',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['system'],
        summary: 'The last hour (or ?minutes=, up to 24 h) of pool usage, boots by outcome, DNS queries/s and TFTP/NFS throughput, sampled every minute since the server started',
        querystring: MetricsHistoryQuerySchema,
        response: { 200: Ok(MetricsHistorySchema) },
      },
    },
    async (request) => ({ success: true as const, data: history.view(request.query.minutes ?? 60) }),
  );

  app.get<{ Querystring: Static<typeof MetricsQuery> }>(
    '/metrics',
    metricsRouteOptions('Metrics: a JSON snapshot, or Prometheus text with ?format=prometheus or Accept: text/plain', false),
    metricsHandler(metrics, 'json'),
  );
};

/** GET /metrics at the root for Prometheus scrapers: text by default; still needs a session or API token. */
export function rootMetricsRoutes(metrics: Metrics): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof MetricsQuery> }>(
      '/metrics',
      metricsRouteOptions('Prometheus scrape endpoint (text by default; ?format=json for the snapshot)', true),
      metricsHandler(metrics, 'prometheus'),
    );
  };
}
