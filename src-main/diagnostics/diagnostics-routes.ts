import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { SSE_RESPONSE, SseStreams } from '../api/sse.js';
import { errorMessage, isAppError } from '../core/errors.js';
import { Ok } from '../core/http-kit/schemas.js';
import type { SseSettings } from '../core/http-kit/sse-settings.js';
import {
  PingRequestSchema,
  PingResultSchema,
  TracerouteRequestSchema,
  TracerouteResultSchema,
  type PingRequest,
  type TracerouteRequest,
} from './diagnostics-contract.js';
import type { DiagnosticRun, DiagnosticsService } from './diagnostics-service.js';

const TAGS = ['diagnostics'];

/**
 * /network/ping and /network/traceroute, plain (the parsed result when the
 * tool is done) and /stream (SSE: a `row` per parsed line, then `done` with
 * the result or `error`). A run stops when its client goes away.
 */
export const diagnosticsRoutes = (diagnostics: Pick<DiagnosticsService, 'ping' | 'traceroute'>, sse: SseSettings): FastifyPluginAsync => async (app) => {
  const streams = new SseStreams(app, sse);

  app.post<{ Body: PingRequest }>(
    '/network/ping',
    {
      config: { access: 'operator' },
      schema: { tags: TAGS, summary: 'Ping a host with the system\'s ping and return the parsed replies and statistics', body: PingRequestSchema, response: { 200: Ok(PingResultSchema) } },
    },
    async (request, reply) => ({ success: true as const, data: await untilDone(reply, diagnostics.ping(request.body)) }),
  );

  app.post<{ Body: TracerouteRequest }>(
    '/network/traceroute',
    {
      config: { access: 'operator' },
      schema: { tags: TAGS, summary: 'Trace the route to a host (traceroute, tracepath or tracert) and return the parsed hops', body: TracerouteRequestSchema, response: { 200: Ok(TracerouteResultSchema) } },
    },
    async (request, reply) => ({ success: true as const, data: await untilDone(reply, diagnostics.traceroute(request.body)) }),
  );

  app.post<{ Body: PingRequest }>(
    '/network/ping/stream',
    {
      config: { access: 'operator' },
      schema: {
        tags: TAGS,
        summary: `Ping as server-sent events: \`row\` (PingReply) per reply, then \`done\` (the result) or \`error\``,
        body: PingRequestSchema,
        response: { 200: SSE_RESPONSE },
      },
    },
    async (request, reply) => streamRun(request, reply, (onRow) => diagnostics.ping(request.body, onRow)),
  );

  app.post<{ Body: TracerouteRequest }>(
    '/network/traceroute/stream',
    {
      config: { access: 'operator' },
      schema: {
        tags: TAGS,
        summary: `Traceroute as server-sent events: \`row\` (TraceHop) per hop line, then \`done\` (the result) or \`error\``,
        body: TracerouteRequestSchema,
        response: { 200: SSE_RESPONSE },
      },
    },
    async (request, reply) => streamRun(request, reply, (onRow) => diagnostics.traceroute(request.body, onRow)),
  );

  /** Starts the run (a refusal is still a JSON 4xx), then hands the response over to the stream. */
  function streamRun<Row, Result>(request: FastifyRequest, reply: FastifyReply, start: (onRow: (row: Row) => void) => DiagnosticRun<Result>) {
    const pending: Row[] = [];
    let send: (row: Row) => void = (row) => pending.push(row);
    const run = start((row) => send(row));
    let stream;
    try {
      stream = streams.start(request, reply);
    } catch (err) {
      run.cancel();
      throw err;
    }
    const open = stream;
    open.onClose(() => run.cancel());
    send = (row) => open.send({ event: 'row', data: row });
    for (const row of pending.splice(0)) send(row);
    run.result.then(
      (result) => {
        open.send({ event: 'done', data: result });
        open.close();
      },
      (err: unknown) => {
        const body = isAppError(err) ? { code: err.code, message: err.message } : { code: 'INTERNAL', message: errorMessage(err) };
        open.send({ event: 'error', data: body });
        open.close();
      },
    );
    return reply;
  }
};

/** The plain routes wait for the result, and stop the tool when the client goes away first. */
async function untilDone<Result>(reply: FastifyReply, run: DiagnosticRun<Result>): Promise<Result> {
  // The response's 'close' before it was sent is the client going away (the request's 'close' only says its body was read).
  const onClose = () => {
    if (!reply.raw.writableFinished) run.cancel();
  };
  reply.raw.once('close', onClose);
  try {
    return await run.result;
  } finally {
    reply.raw.off('close', onClose);
  }
}

