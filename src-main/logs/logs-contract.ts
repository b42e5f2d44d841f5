import { Type, type Static } from 'typebox';
import { LOG_LEVELS, StrictObject, literalUnion } from '../core/http-kit/common-contract.js';

/*
 * The logs API's contract (/api/v1/logs/*): schemas and limits, typebox and
 * other contracts only (the renderer imports it: @contracts/logs).
 */

export const LogFileSchema = Type.Object(
  {
    name: Type.String(),
    size: Type.Integer({ minimum: 0, description: 'Bytes' }),
    modified_at: Type.String({ format: 'date-time' }),
    current: Type.Boolean({ description: 'The file being written now; cleanup never deletes it' }),
  },
  { $id: 'LogFile' },
);

export const DiskUsageSchema = Type.Object({
  bytes: Type.Integer({ minimum: 0, description: 'Total size of the log files' }),
  files: Type.Integer({ minimum: 0 }),
  fs_free_bytes: Type.Integer({ minimum: 0, description: 'Free bytes (for this user) on the data directory\'s file system' }),
  fs_total_bytes: Type.Integer({ minimum: 0 }),
});

export const CleanupBody = StrictObject(
  {
    older_than_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500, description: 'Delete archives last written more than this many days ago' })),
    max_total_mb: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1_048_576, description: 'Then delete the oldest archives until all log files take at most this many MiB' }),
    ),
  },
  { description: 'At least one criterion is required' },
);

export const CleanupResultSchema = Type.Object({
  deleted: Type.Array(LogFileSchema),
  bytes_freed: Type.Integer({ minimum: 0 }),
  failed: Type.Array(Type.Object({ name: Type.String(), error: Type.String() }), { description: 'Files that could not be deleted' }),
  remaining_bytes: Type.Integer({ minimum: 0 }),
  remaining_files: Type.Integer({ minimum: 0 }),
});

export type LogFileInfo = Static<typeof LogFileSchema>;
export type LogDiskUsage = Static<typeof DiskUsageSchema>;
export type LogCleanupRequest = Static<typeof CleanupBody>;
export type CleanupResult = Static<typeof CleanupResultSchema>;

export { LOG_LEVELS, type LogLevel } from '../core/http-kit/common-contract.js';

/** The data of a `log` message on GET /logs/stream (and the IPC stream). */
export const LogRecordSchema = Type.Object({
  time: Type.String({ format: 'date-time' }),
  level: literalUnion(LOG_LEVELS),
  scope: Type.String(),
  message: Type.String(),
  context: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type LogRecordData = Static<typeof LogRecordSchema>;
