import { Type, type Static } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import { MAC_INPUT_PATTERN } from '../core/mac.js';
import { paginate } from '../core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList } from '../core/http-kit/schemas.js';
import type { BootTimelines } from './boot-timeline-service.js';
import { BootingNowSchema, HOST_LIFECYCLES, HostSummarySchema, HostTimelineSchema, TimelineQuerySchema, type HostLifecycle, type HostSummary } from './hosts-contract.js';
import type { HostService } from './host-service.js';

const MacTimelineQuery = Type.Object(
  {
    ...TimelineQuerySchema.properties,
    mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Any common MAC spelling; machines not recorded as hosts too' }),
  },
  { additionalProperties: false },
);
const BootingNowQuery = Type.Object({ page: ListQueryProperties.page, size: ListQueryProperties.size }, { additionalProperties: false });

/** The window of the summary's failed boots. */
const FAILED_BOOTS_WINDOW_MS = 60 * 60_000;

/** The boot timelines (docs/hosts-and-profiles.md, "Boot timeline") and the hosts summary of the dashboard. */
export function bootTimelineRoutes(timelines: Pick<BootTimelines, 'forHost' | 'forMac' | 'bootingNow' | 'recentFailures'>, hosts: Pick<HostService, 'all' | 'view'>): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/hosts/summary',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: 'Host counts by lifecycle state, hosts waiting for adoption and the boots that failed in the last hour (the dashboard)',
          response: { 200: Ok(HostSummarySchema) },
        },
      },
      async () => ({ success: true as const, data: hostSummary(hosts, timelines.recentFailures(FAILED_BOOTS_WINDOW_MS)) }),
    );

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

function hostSummary(hosts: Pick<HostService, 'all' | 'view'>, failed: HostSummary['failed_boots_last_hour']): HostSummary {
  const byLifecycle = Object.fromEntries(HOST_LIFECYCLES.map((state) => [state, 0])) as Record<HostLifecycle, number>;
  const all = hosts.all();
  for (const host of all) byLifecycle[hosts.view(host).lifecycle] += 1;
  return { total: all.length, by_lifecycle: byLifecycle, waiting_adoption: all.filter((host) => host.discovered).length, failed_boots_last_hour: failed };
}
