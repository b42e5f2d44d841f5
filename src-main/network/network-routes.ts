import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { paginate } from '../core/http-kit/list-query.js';
import { ListQuery, OkList } from '../core/http-kit/schemas.js';
import { NicSchema } from './network-contract.js';
import type { NetworkService } from './network-service.js';
import type { Nic } from './nic.js';

const SORTABLE = ['name', 'mac', 'mtu', 'up', 'link', 'internal'] as const satisfies readonly (keyof Nic)[];

/** The network interfaces of this machine: GET /interfaces and GET /network/interfaces are one handler. */
export const interfaceRoutes = (network: NetworkService): FastifyPluginAsync => async (app) => {
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
        const page = paginate(network.refresh(), request.query, {
          sortable: SORTABLE,
          defaultSort: 'name',
          searchText: (nic) => [nic.name, nic.mac, ...nic.addresses.map((a) => a.cidr)],
        });
        return { success: true as const, ...page };
      },
    );
  }
};
