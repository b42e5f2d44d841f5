import type { FastifyPluginAsync } from 'fastify';
import { Ok } from '../core/http-kit/schemas.js';
import type { ServedRoots } from './served-roots.js';
import { ServedRootsPatch, ServedRootsView, type ServedRootsPatchData, type ServedRootsViewData } from './served-roots-contract.js';

async function view(servedRoots: ServedRoots): Promise<ServedRootsViewData> {
  return { allowed_roots: servedRoots.stored(), effective: await servedRoots.describe() };
}

/**
 * GET/PUT /settings/served-roots: where served folders (the TFTP root today;
 * NFS exports, file roots and the ISO drop folder later) may lie. Admin only
 * to change: an allowed root is what an operator may then serve to the LAN.
 */
export const servedRootsRoutes = (servedRoots: ServedRoots): FastifyPluginAsync => async (app) => {
  app.get(
    '/settings/served-roots',
    {
      config: { access: 'viewer' },
      schema: { tags: ['settings'], summary: 'Allowed roots for served folders (built-in, config and admin-set)', response: { 200: Ok(ServedRootsView) } },
    },
    async () => ({ success: true as const, data: await view(servedRoots) }),
  );

  app.put<{ Body: ServedRootsPatchData }>(
    '/settings/served-roots',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['settings'],
        summary: 'Replace the admin-set allowed roots; a running TFTP server whose root is no longer allowed is restarted (and fails)',
        body: ServedRootsPatch,
        response: { 200: Ok(ServedRootsView) },
      },
    },
    async (request) => {
      request.auditDetail = { old_allowed_roots: JSON.stringify(servedRoots.stored()), new_allowed_roots: JSON.stringify(request.body.allowed_roots) };
      // Services whose root is no longer allowed are restarted by the change listeners before this answers.
      await servedRoots.setAllowed(request.body.allowed_roots);
      return { success: true as const, data: await view(servedRoots) };
    },
  );
};
