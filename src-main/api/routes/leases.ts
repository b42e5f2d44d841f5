import { Type, type Static } from 'typebox';
import { invalid, notFound } from '../../core/errors.js';
import { MAC_INPUT_PATTERN, normalizeMac } from '../../core/mac.js';
import { leaseStats, leaseView, leaseViews, type LeaseView } from '../../dhcp/lease-views.js';
import { paginate } from '../../core/http-kit/list-query.js';
import { ListQueryProperties, Ok, OkList, StrictObject, Timestamp } from '../../core/http-kit/schemas.js';
import { parseIpv4Subnet } from '../../network/ip-math.js';
import type { RoutePluginFactory } from './index.js';

export const LeaseSchema = Type.Object(
  {
    mac: Type.String(),
    ip: Type.String(),
    hostname: Type.Union([Type.String(), Type.Null()]),
    state: Type.Union([Type.Literal('active'), Type.Literal('expired')]),
    subnet: Type.Union([Type.String(), Type.Null()], { description: 'Configured subnet holding the address; null when none does any more' }),
    starts_at: Timestamp,
    expires_at: Timestamp,
    client_id: Type.Union([Type.String(), Type.Null()], { description: 'Option 61 as hex' }),
    vendor_class: Type.Union([Type.String(), Type.Null()]),
    arch: Type.Union([Type.Integer(), Type.Null()], { description: 'Option 93 architecture type' }),
    reserved: Type.Boolean({ description: 'The address is this MAC\'s reservation' }),
  },
  { $id: 'Lease' },
);

const StatsCounts = {
  size: Type.Integer(),
  used: Type.Integer({ description: 'Active leases' }),
  reserved: Type.Integer({ description: 'Reserved addresses without an active lease' }),
  quarantined: Type.Integer({ description: 'Declined addresses kept out of the pool' }),
  free: Type.Integer(),
  utilisation_percent: Type.Number({ description: 'used / size × 100, one decimal' }),
  expired: Type.Integer({ description: 'Expired leases (their addresses are free again)' }),
};

const LeaseStatsSchema = Type.Object({
  overall: Type.Object({ leases: Type.Integer({ description: 'Lease records, active and expired' }), ...StatsCounts }),
  ranges: Type.Array(Type.Object({ subnet: Type.String(), start: Type.String(), end: Type.String(), ...StatsCounts })),
});

const LeaseListQuery = Type.Object(
  {
    ...ListQueryProperties,
    state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('expired')])),
    subnet: Type.Optional(Type.String({ maxLength: 18, description: 'IPv4 CIDR, e.g. 192.168.50.0/24' })),
  },
  { additionalProperties: false },
);

const MacParams = StrictObject({ mac: Type.String({ pattern: MAC_INPUT_PATTERN, description: 'MAC in any common spelling' }) });
const BatchDeleteBody = StrictObject({ macs: Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 1000 }) });
const BatchResult = Type.Object({ mac: Type.String(), ok: Type.Boolean(), error: Type.Optional(Type.String()), code: Type.Optional(Type.String()) });

const SORTABLE: (keyof LeaseView)[] = ['mac', 'ip', 'hostname', 'state', 'subnet', 'starts_at', 'expires_at', 'vendor_class', 'arch'];

/** DHCP leases: list with filters, statistics, deletion one by one or in a batch, prune of expired ones. */
export const leaseRoutes: RoutePluginFactory = (ctx) => async (app) => {
  const deps = { leases: ctx.leases, settings: ctx.dhcpSettings, reservations: ctx.reservations };

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
      const lease = ctx.leases.get(mac);
      if (!lease) throw notFound('lease of', mac);
      const view = leaseView(lease, Date.now(), ctx.dhcpSettings, ctx.reservations);
      ctx.leases.remove(mac);
      await ctx.leases.durable();
      return { success: true as const, data: view };
    },
  );

  app.post<{ Body: Static<typeof BatchDeleteBody> }>(
    '/leases/batch-delete',
    {
      config: { access: 'operator' },
      schema: { tags: ['leases'], summary: 'Delete the leases of several MACs; one result per MAC', body: BatchDeleteBody, response: { 200: Ok(Type.Array(BatchResult)) } },
    },
    async (request) => {
      const results = request.body.macs.map((input) => {
        const mac = normalizeMac(input);
        if (!mac) return { mac: input, ok: false, error: `"${input}" is not a MAC address`, code: 'VALIDATION_FAILED' };
        if (!ctx.leases.remove(mac)) return { mac, ok: false, error: `no lease for ${mac}`, code: 'NOT_FOUND' };
        return { mac, ok: true };
      });
      await ctx.leases.durable();
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
      const removed = ctx.leases.prune(Date.now());
      await ctx.leases.durable();
      return { success: true as const, data: { removed } };
    },
  );
};
