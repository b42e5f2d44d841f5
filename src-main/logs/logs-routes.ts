import path from 'node:path';
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { SSE_RESPONSE, SseStreams } from '../api/sse.js';
import { invalid } from '../core/errors.js';
import { Ok, StrictObject } from '../core/http-kit/schemas.js';
import type { SseSettings } from '../core/http-kit/sse-settings.js';
import { LOG_LEVELS, type LogSink, type Logger } from '../core/logger.js';
import { cleanupLogs, listLogFiles, logDiskUsage } from './log-files.js';
import { openLogStream, parseLogFilter } from './log-stream.js';
import { CleanupBody, CleanupResultSchema, DiskUsageSchema, LogFileSchema } from './logs-contract.js';

/** What the log routes read: the log sink, the core's logger, the data directory and the SSE timing. */
export interface LogRouteDeps {
  logs: LogSink;
  log: Logger;
  config: { dataDir: string };
  sse: SseSettings;
}

const LogStreamQuery = StrictObject({
  level: Type.Optional(Type.Enum([...LOG_LEVELS], { description: 'Minimum severity' })),
  service: Type.Optional(Type.String({ maxLength: 1000, description: 'Logger scope (service or area); comma-separated list' })),
});

/** Log files (list, disk usage, cleanup) and the live log stream (SSE). */
export const logRoutes = (ctx: LogRouteDeps): FastifyPluginAsync => async (app) => {
  const streams = new SseStreams(app, ctx.sse);
  // Without file logging (tests) the directory is still the conventional one; it just has no current file.
  const logDir = () => ctx.logs.logDir ?? path.join(ctx.config.dataDir, 'logs');

  app.get(
    '/logs/files',
    {
      config: { access: 'viewer' },
      schema: { tags: ['logs'], summary: 'List the log files, newest first', response: { 200: Ok(Type.Array(LogFileSchema)) } },
    },
    async () => ({ success: true as const, data: await listLogFiles(logDir()) }),
  );

  app.get(
    '/logs/disk-usage',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['logs'],
        summary: 'Size of the log files and free space on the data directory\'s file system',
        response: { 200: Ok(DiskUsageSchema) },
      },
    },
    async () => ({ success: true as const, data: await logDiskUsage(logDir(), ctx.config.dataDir) }),
  );

  app.post<{ Body: Static<typeof CleanupBody> | undefined }>(
    '/logs/cleanup',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['logs'],
        summary: 'Delete archived log files by age and/or total size (never the current file)',
        body: CleanupBody,
        response: { 200: Ok(CleanupResultSchema) },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      if (body.older_than_days === undefined && body.max_total_mb === undefined) {
        throw invalid('body', 'give older_than_days, max_total_mb or both');
      }
      const result = await cleanupLogs(logDir(), {
        ...(body.older_than_days === undefined ? {} : { olderThanDays: body.older_than_days }),
        ...(body.max_total_mb === undefined ? {} : { maxTotalBytes: Math.floor(body.max_total_mb * 1024 * 1024) }),
      });
      if (result.deleted.length > 0) {
        ctx.log.scope('logs').info(`log cleanup deleted ${result.deleted.length} archive(s), ${result.bytes_freed} bytes`);
      }
      return { success: true as const, data: result };
    },
  );

  app.get<{ Querystring: Static<typeof LogStreamQuery> }>(
    '/logs/stream',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['logs'],
        summary: 'Live log records as server-sent events (event `log`; no replay)',
        querystring: LogStreamQuery,
        response: { 200: SSE_RESPONSE },
      },
    },
    async (request, reply) => {
      const filter = parseLogFilter(request.query);
      const stream = streams.start(request, reply);
      stream.onClose(openLogStream(ctx.logs, filter, (message) => stream.send(message)));
      return reply;
    },
  );
};
