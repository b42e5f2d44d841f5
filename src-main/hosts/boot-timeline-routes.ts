import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { MAC_INPUT_PATTERN } from '../core/mac.js';
import { paginate } from '../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList } from '../core/http-kit/schemas.js';
import type { BootTimelines } from './boot-timeline-service.js';
import { BootingNowSchema, HostTimelineSchema, TimelineQuerySchema } from './hosts-contract.js';

const MacTimelineQuery = Type.Object(
  {
    ...TimelineQuerySchema.properties,
    mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common MAC spelling; machines not recorded as hosts too' }),
  },
  { additionalProperties: false },
);
const BootingNowQuery = Type.Object({ page: ListQueryProperties.page, size: ListQueryProperties.size }, { additionalProperties: false });

/** The boot timelines (docs/hosts-and-profiles.md, "Boot timeline"). */
export function bootTimelineRoutes(timelines: Pick<BootTimelines, 'forHost' | 'forMac' | 'bootingNow'>): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof TimelineQuerySchema> }>(
      '/hosts/:id/timeline',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: "A host's boots, newest first, each with its steps (DHCP, TFTP/HTTP transfers, boot script, install) and outcome",
          params: IdParams,
          querystring: TimelineQuerySchema,
          response: { 200: Ok(HostTimelineSchema) },
        },
      },
      async (request) => ({ success: true as const, data: timelines.forHost(request.params.id, request.query.limit ?? 10) }),
    );

    app.get<{ Querystring: Static<typeof MacTimelineQuery> }>(
      '/hosts/timeline',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: "A MAC's boots, newest first (machines that are not hosts too); host_id when a host has the MAC",
          querystring: MacTimelineQuery,
          response: { 200: Ok(HostTimelineSchema) },
        },
      },
      async (request) => ({ success: true as const, data: timelines.forMac(request.query.mac, request.query.limit ?? 10) }),
    );

    app.get<{ Querystring: Static<typeof BootingNowQuery> }>(
      '/hosts/booting-now',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: 'The boots with a step in the last 10 minutes, latest activity first',
          querystring: BootingNowQuery,
          response: { 200: OkList(BootingNowSchema) },
        },
      },
      async (request) => ({ success: true as const, ...paginate(timelines.bootingNow(), request.query, { sortable: [] }) }),
    );
  };
}
