import { Type, type Static } from 'typebox';
import { StrictObject, literalUnion } from '../core/http-kit/common-contract.js';

/*
 * The services API's contract (/api/v1/services, start/stop/restart,
 * auto-start): schemas and constants, typebox and other contracts only
 * (the renderer imports it: @contracts/services).
 */

export const SERVICE_STATES = ['stopped', 'starting', 'running', 'stopping', 'failed'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

export const SERVICE_ACTIONS = ['start', 'stop', 'restart'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

export const ServiceStatusSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    state: literalUnion(SERVICE_STATES),
    auto_start: Type.Boolean(),
    protected: Type.Boolean({ description: 'true for the HTTP service, which the API cannot stop' }),
    listen: Type.Array(Type.String(), { description: 'e.g. "udp 0.0.0.0:53"; empty unless running' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    uptime_seconds: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    notice: Type.Union([Type.String(), Type.Null()], {
      description: 'What a running service waits for or lacks, e.g. "br0: no link (cable unplugged?)"; null when nothing (or not running)',
    }),
  },
  { $id: 'ServiceStatus' },
);

export const NameParams = StrictObject({ name: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }) });
export const ActionParams = StrictObject({ name: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }), action: literalUnion(SERVICE_ACTIONS) });
export const BatchParams = StrictObject({ action: literalUnion(SERVICE_ACTIONS) });
export const BatchBody = StrictObject({
  names: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 32, uniqueItems: true }),
});
export const AutoStartBody = StrictObject({ auto_start: Type.Boolean() });
export const BatchResult = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  service: Type.Optional(ServiceStatusSchema),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
});

export type ServiceStatus = Static<typeof ServiceStatusSchema>;
export type ServiceBatchRequest = Static<typeof BatchBody>;
export type ServiceBatchResult = Static<typeof BatchResult>;
export type AutoStartRequest = Static<typeof AutoStartBody>;
