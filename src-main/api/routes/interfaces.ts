import { Type, type Static } from 'typebox';
import type { Nic } from '../../network/nic.js';
import { paginate } from '../../core/http-kit/list-query.js';
import { ListQuery, OkList } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

export const NicAddressSchema = Type.Object({
  address: Type.String(),
  family: Type.Enum(['ipv4', 'ipv6']),
  prefix: Type.Integer({ minimum: 0, maximum: 128 }),
  cidr: Type.String({ description: 'address/prefix, e.g. 192.168.1.10/24' }),
  subnet: Type.String({ description: 'The subnet, e.g. 192.168.1.0/24' }),
});

export const NicSchema = Type.Object(
  {
    name: Type.String(),
    mac: Type.Union([Type.String(), Type.Null()], { description: 'Lowercase colon form; null without a hardware address' }),
    addresses: Type.Array(NicAddressSchema),
    mtu: Type.Union([Type.Integer(), Type.Null()], { description: 'null where the platform does not report it' }),
    up: Type.Boolean(),
    internal: Type.Boolean({ description: 'true for loopback' }),
  },
  { $id: 'NetworkInterface' },
);

export const ResolvedServerAddressSchema = Type.Object({
  interface: Type.Union([Type.String(), Type.Null()], { description: 'null for an override of a subnet no interface is on' }),
  subnet: Type.String(),
  address: Type.String(),
  source: Type.Enum(['detected', 'override']),
  served: Type.Boolean(),
});

const SORTABLE = ['name', 'mac', 'mtu', 'up', 'internal'] as const satisfies readonly (keyof Nic)[];

/** The network interfaces of this machine: GET /interfaces and GET /network/interfaces are one handler. */
export const interfaceRoutes: RoutePluginFactory = (ctx) => async (app) => {
  for (const url of ['/interfaces', '/network/interfaces']) {
    app.get<{ Querystring: Static<typeof ListQuery> }>(
      url,
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['network'],
          summary: 'List the network interfaces (read fresh on every call)',
          querystring: ListQuery,
          response: { 200: OkList(NicSchema) },
        },
      },
      async (request) => {
        const page = paginate(ctx.network.refresh(), request.query, {
          sortable: SORTABLE,
          defaultSort: 'name',
          searchText: (nic) => [nic.name, nic.mac, ...nic.addresses.map((a) => a.cidr)],
        });
        return { success: true as const, ...page };
      },
    );
  }
};
