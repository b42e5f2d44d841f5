import path from 'node:path';
import { Type, type Static } from 'typebox';
import { invalid } from '../../core/errors.js';
import { LOG_LEVELS } from '../../core/logger.js';
import { cleanupLogs, listLogFiles, logDiskUsage } from '../../logs/log-files.js';
import { openLogStream, parseLogFilter } from '../../logs/log-stream.js';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import { SSE_RESPONSE, SseStreams } from '../sse.js';
import type { RoutePluginFactory } from './index.js';

const LogFileSchema = Type.Object(
  {
    name: Type.String(),
    size: Type.Integer({ minimum: 0, description: 'Bytes' }),
    modified_at: Type.String({ format: 'date-time' }),
    current: Type.Boolean({ description: 'The file being written now; cleanup never deletes it' }),
  },
  { $id: 'LogFile' },
);

const DiskUsageSchema = Type.Object({
  bytes: Type.Integer({ minimum: 0, description: 'Total size of the log files' }),
  files: Type.Integer({ minimum: 0 }),
  fs_free_bytes: Type.Integer({ minimum: 0, description: 'Free bytes (for this user) on the data directory\'s file system' }),
  fs_total_bytes: Type.Integer({ minimum: 0 }),
});

const CleanupBody = StrictObject(
  {
    older_than_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500, description: 'Delete archives last written more than this many days ago' })),
    max_total_mb: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1_048_576, description: 'Then delete the oldest archives until all log files take at most this many MiB' }),
    ),
  },
  { description: 'At least one criterion is required' },
);

const CleanupResultSchema = Type.Object({
  deleted: Type.Array(LogFileSchema),
  bytes_freed: Type.Integer({ minimum: 0 }),
  failed: Type.Array(Type.Object({ name: Type.String(), error: Type.String() }), { description: 'Files that could not be deleted' }),
  remaining_bytes: Type.Integer({ minimum: 0 }),
  remaining_files: Type.Integer({ minimum: 0 }),
});

const LogStreamQuery = StrictObject({
  level: Type.Optional(Type.Enum([...LOG_LEVELS], { description: 'Minimum severity' })),
  service: Type.Optional(Type.String({ maxLength: 1000, description: 'Logger scope (service or area); comma-separated list' })),
});

/** Log files (list, disk usage, cleanup) and the live log stream (SSE). */
export const logRoutes: RoutePluginFactory = (ctx) => async (app) => {
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
