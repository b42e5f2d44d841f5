import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Metrics } from './metrics.js';

/** Request duration buckets in seconds: API calls are milliseconds, boot file downloads can take minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * Counts every HTTP response and its duration by method, route pattern and
 * status. The route is the pattern (/api/v1/hosts/:id), never the raw URL,
 * and unmatched requests share one label, so a scanner cannot grow the
 * label set without bound. fastify-plugin lifts the hook to the root so it
 * sees the routes of every plugin.
 */
export function httpMetricsPlugin(metrics: Metrics): FastifyPluginAsync {
  const requests = metrics.counter({
    name: 'bootwright_http_requests_total',
    help: 'HTTP responses sent, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
  });
  const duration = metrics.histogram({
    name: 'bootwright_http_request_duration_seconds',
    help: 'Time from request to response, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
  });
  return fastifyPlugin(
    async (app) => {
      app.addHook('onResponse', async (request, reply) => {
        const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
        requests.inc(labels);
        duration.observe(labels, reply.elapsedTime / 1000);
      });
    },
    { name: 'bootwright-http-metrics' },
  );
}
