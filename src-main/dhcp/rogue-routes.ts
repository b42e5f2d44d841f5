import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { Ok } from '../core/http-kit/schemas.js';
import { DhcpGuardStatusSchema, DhcpProbeBodySchema, DhcpProbeResultSchema, type DhcpGuardStatus, type DhcpProbeResult } from './dhcp-contract.js';

/** What the routes call: the DHCP server's rogue-DHCP guard. */
export interface RogueRouteOperations {
  probe(interfaceName: string, timeoutMs?: number): Promise<DhcpProbeResult>;
  status(): DhcpGuardStatus;
}

/** The rogue-DHCP guard (docs/dhcp.md, "Rogue-DHCP guard"): an on-demand probe and what the guard decided and saw. */
export function rogueRoutes(guard: RogueRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Body: Static<typeof DhcpProbeBodySchema> }>(
      '/dhcp/probe',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['dhcp'],
          summary: 'Probe an interface for other DHCP servers: send a DHCPDISCOVER from it and list the OFFERs that answer within timeout_ms (the answer takes that long)',
          body: DhcpProbeBodySchema,
          response: { 200: Ok(DhcpProbeResultSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await guard.probe(request.body.interface, request.body.timeout_ms) }),
    );

    app.get(
      '/dhcp/guard',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['dhcp'],
          summary: 'The rogue-DHCP guard: per server-mode interface what the last start\'s probe found (clear, blocked, forced, not_probed), and foreign servers seen while serving',
          response: { 200: Ok(DhcpGuardStatusSchema) },
        },
      },
      async () => ({ success: true as const, data: guard.status() }),
    );
  };
}
