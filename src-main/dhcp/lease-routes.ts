import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { invalid, notFound } from '../core/errors.js';
import { paginate } from '../core/http-kit/list-query.js';
import { ListQueryProperties, Ok, OkList, StrictObject } from '../core/http-kit/schemas.js';
import { MAC_INPUT_PATTERN, normalizeMac } from '../core/mac.js';
import { parseIpv4Subnet } from '../network/ip-math.js';
import { LeaseBatchResultSchema, LeaseSchema, LeaseStateSchema, LeaseStatsSchema, MAX_LEASE_BATCH, type LeaseView } from './dhcp-contract.js';
import type { DhcpSettings } from './dhcp-settings.js';
import { leaseStats, leaseView, leaseViews } from './lease-views.js';
import type { Archmap } from './archmap.js';
import type { LeaseDatabase } from './leases.js';
import type { Reservations } from './reservations.js';

/** What the routes call: the DHCP facade's lease database, with the settings and reservations a lease view names. */
export interface LeaseRouteOperations {
  readonly leases: LeaseDatabase;
  readonly settings: DhcpSettings;
  readonly reservations: Reservations;
  /** Names option 93 codes (`arch_name`). */
  readonly archmap: Pick<Archmap, 'lookup'>;
}

const LeaseListQuery = Type.Object(
  {
    ...ListQueryProperties,
    state: Type.Optional(LeaseStateSchema),
    subnet: Type.Optional(Type.String({ maxLength: 18, description: 'IPv4 CIDR, e.g. 192.168.50.0/24' })),
  },
  { additionalProperties: false },
);

const MacParams = StrictObject({ mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'MAC in any common spelling' }) });
const BatchDeleteBody = StrictObject({ macs: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: MAX_LEASE_BATCH }) });

const SORTABLE: (keyof LeaseView)[] = ['mac', 'ip', 'hostname', 'state', 'subnet', 'starts_at', 'expires_at', 'vendor_class', 'arch'];

/** DHCP leases: list with filters, statistics, deletion one by one or in a batch, prune of expired ones. */
export function leaseRoutes(deps: LeaseRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof LeaseListQuery> }>(
      '/leases',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['leases'],
          summary: 'List DHCP leases (filters: state, subnet, q over MAC/IP/hostname/vendor class)',
          querystring: LeaseListQuery,
          response: { 200: OkList(LeaseSchema) },
        },
      },
      async (request) => {
        const { state, subnet, ...query } = request.query;
        if (subnet !== undefined && !parseIpv4Subnet(subnet)) throw invalid('querystring.subnet', `"${subnet}" is not an IPv4 subnet in CIDR notation`);
        const rows = leaseViews(deps, { ...(state ? { state } : {}), ...(subnet ? { subnet } : {}) }, Date.now());
        const page = paginate(rows, query, {
          sortable: SORTABLE,
          defaultSort: 'ip',
          searchText: (row) => [row.mac, row.ip, row.hostname, row.vendor_class],
        });
        return { success: true as const, ...page };
      },
    );

    app.get(
      '/leases/stats',
      {
        config: { access: 'viewer' },
        schema: { tags: ['leases'], summary: 'Lease statistics per range and overall', response: { 200: Ok(LeaseStatsSchema) } },
      },
      async () => ({ success: true as const, data: leaseStats(deps, Date.now()) }),
    );

    app.delete<{ Params: Static<typeof MacParams> }>(
      '/leases/:mac',
      {
        config: { access: 'operator' },
        schema: { tags: ['leases'], summary: 'Delete the lease of a MAC address (its address returns to the pool)', params: MacParams, response: { 200: Ok(LeaseSchema) } },
      },
      async (request) => {
        const mac = normalizeMac(request.params.mac);
        if (!mac) throw invalid('params.mac', `"${request.params.mac}" is not a MAC address`);
        const lease = deps.leases.get(mac);
        if (!lease) throw notFound('lease of', mac);
        const view = leaseView(lease, Date.now(), deps);
        deps.leases.remove(mac);
        await deps.leases.durable();
        return { success: true as const, data: view };
      },
    );

    app.post<{ Body: Static<typeof BatchDeleteBody> }>(
      '/leases/batch-delete',
      {
        config: { access: 'operator' },
        schema: { tags: ['leases'], summary: 'Delete the leases of several MACs; one result per MAC', body: BatchDeleteBody, response: { 200: Ok(Type.Array(LeaseBatchResultSchema)) } },
      },
      async (request) => {
        const results = request.body.macs.map((input) => {
          const mac = normalizeMac(input);
          if (!mac) return { mac: input, ok: false, error: `"${input}" is not a MAC address`, code: 'VALIDATION_FAILED' };
          if (!deps.leases.remove(mac)) return { mac, ok: false, error: `no lease for ${mac}`, code: 'NOT_FOUND' };
          return { mac, ok: true };
        });
        await deps.leases.durable();
        return { success: true as const, data: results };
      },
    );

    app.post(
      '/leases/prune',
      {
        config: { access: 'operator' },
        schema: { tags: ['leases'], summary: 'Remove every expired lease; returns how many', response: { 200: Ok(Type.Object({ removed: Type.Integer({ minimum: 0 }) })) } },
      },
      async () => {
        const removed = deps.leases.prune(Date.now());
        await deps.leases.durable();
        return { success: true as const, data: { removed } };
      },
    );
  };
}
