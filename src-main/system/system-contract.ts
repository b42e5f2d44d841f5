import { Type, type Static } from 'typebox';
import { SERVICE_STATES, ServiceStatusSchema, type ServiceState } from '../services/services-contract.js';

/*
 * The system API's contract (/api/v1/version, /version/check,
 * /version/download, /status, /metrics and the root /metrics): typebox and
 * other contracts only (the renderer imports it: @contracts/system).
 */

export const VersionInfo = Type.Object({
  version: Type.String({ description: 'Bootwright version (package.json)' }),
  commit: Type.Union([Type.String(), Type.Null()], { description: 'Git commit of the build; null when built outside git or run from sources' }),
  build_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  node: Type.String({ description: 'Node.js version' }),
  electron: Type.Union([Type.String(), Type.Null()], { description: 'Electron version; null when headless' }),
  platform: Type.String({ description: 'process.platform: linux, win32, darwin' }),
  arch: Type.String({ description: 'process.arch: x64, arm64' }),
});

export const UpdateCheckSchema = Type.Object({
  current: Type.String(),
  latest: Type.String(),
  update_available: Type.Boolean({ description: 'true when latest is newer than current (semver precedence)' }),
  url: Type.String({ description: 'Where the release file is downloaded from' }),
  notes: Type.Union([Type.String(), Type.Null()]),
  published_at: Type.Union([Type.String(), Type.Null()]),
});

export const UpdateDownloadSchema = Type.Object({
  file: Type.String({ description: 'Absolute path of the verified file under <data-dir>/updates/' }),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String(),
  version: Type.String(),
});

export const StatusSchema = Type.Object({
  version: Type.String(),
  server_name: Type.String(),
  started_at: Type.String({ format: 'date-time' }),
  uptime_seconds: Type.Integer({ minimum: 0 }),
  urls: Type.Array(Type.String(), {
    description:
      'The web UI and API as other machines on the served networks reach it: http(s)://<each served address>:<port> (only the listen address when it is a specific one); empty while no served interface has an address',
  }),
  interface_watch: Type.Object(
    {
      mode: Type.Enum(['events', 'poll', 'off']),
      detail: Type.Union([Type.String(), Type.Null()]),
    },
    { description: "How link and address changes are followed: 'events' (rtnetlink through iproute2's ip monitor), 'poll' (ip missing or restarting; detail says why), 'off'" },
  ),
  services: Type.Object({
    total: Type.Integer({ minimum: 0 }),
    by_state: Type.Object(Object.fromEntries(SERVICE_STATES.map((state) => [state, Type.Integer({ minimum: 0 })])) as Record<ServiceState, ReturnType<typeof Type.Integer>>),
    list: Type.Array(ServiceStatusSchema),
  }),
  data_dir: Type.Object({
    path: Type.String(),
    bytes_used: Type.Integer({ minimum: 0 }),
    usage_truncated: Type.Boolean({ description: 'true when the walk stopped at 100000 entries; bytes_used is then a lower bound' }),
    fs_free_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    fs_total_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  }),
});

export const METRICS_FORMATS = ['json', 'prometheus'] as const;
export const METRIC_TYPES = ['counter', 'gauge', 'histogram', 'summary'] as const;

export const MetricSampleSchema = Type.Object({
  sample: Type.Optional(Type.String({ description: 'Histogram/summary series: <name>_bucket, _sum, _count' })),
  labels: Type.Record(Type.String(), Type.String()),
  value: Type.Union([Type.Number(), Type.Null()], { description: 'null for NaN or ±Inf' }),
});

export const MetricsSnapshotSchema = Type.Object({
  generated_at: Type.String({ format: 'date-time' }),
  metrics: Type.Array(
    Type.Object({
      name: Type.String(),
      help: Type.String(),
      type: Type.Enum([...METRIC_TYPES]),
      values: Type.Array(MetricSampleSchema),
    }),
  ),
});

/** GET /metrics/history: the dashboard's charts over time (docs/settings-and-status.md, "Metrics history"). */
export const MetricsHistorySchema = Type.Object({
  interval_seconds: Type.Number({ description: 'Time between samples' }),
  series: Type.Array(
    Type.Object({
      name: Type.String({ description: 'dhcp_leases_active, dhcp_pool_size, boots_ok, boots_fallback, boots_denied, dns_queries, tftp_bytes, nfs_bytes' }),
      unit: Type.String(),
      description: Type.String(),
      points: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }), value: Type.Union([Type.Number(), Type.Null()]) }), {
        description: 'Oldest first; value null where there is none (the first sample of a rate, a counter reset, a server not running)',
      }),
    }),
  ),
});

export const MetricsHistoryQuerySchema = Type.Object(
  { minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, default: 60, description: 'How far back (at most 24 h)' })) },
  { additionalProperties: false },
);

export type MetricsHistory = Static<typeof MetricsHistorySchema>;
export type VersionInfoData = Static<typeof VersionInfo>;
export type UpdateCheck = Static<typeof UpdateCheckSchema>;
export type UpdateDownload = Static<typeof UpdateDownloadSchema>;
export type StatusData = Static<typeof StatusSchema>;
export type MetricsSnapshot = Static<typeof MetricsSnapshotSchema>;

// ---- first run (docs/quickstart.md, "The first-run wizard")

export const FIRST_RUN_ACTIONS = ['complete', 'skip'] as const;
export type FirstRunAction = (typeof FIRST_RUN_ACTIONS)[number];

/** GET /system/first-run: whether the first-run wizard is done, and whether the generated admin password is still in use. */
export const FirstRunStateSchema = Type.Object(
  {
    completed: Type.Boolean({ description: 'An admin finished the first-run wizard' }),
    skipped: Type.Boolean({ description: 'An admin skipped the wizard (it stays reachable from Settings)' }),
    must_change_password: Type.Boolean({ description: 'An enabled admin still has the password Bootwright generated on the first start' }),
  },
  { $id: 'FirstRunState' },
);

export const FirstRunBodySchema = Type.Object(
  { action: Type.Enum([...FIRST_RUN_ACTIONS], { description: 'complete or skip' }) },
  { additionalProperties: false },
);

export type FirstRunState = Static<typeof FirstRunStateSchema>;
export type FirstRunBody = Static<typeof FirstRunBodySchema>;
