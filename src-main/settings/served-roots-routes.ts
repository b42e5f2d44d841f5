import type { AppContext } from '../core/app-context.js';
import { Ok } from '../core/http-kit/schemas.js';
import type { RoutePluginFactory } from '../api/routes/index.js';
import { ServedRootsPatch, ServedRootsView, type ServedRootsPatchData, type ServedRootsViewData } from './served-roots-contract.js';

async function view(ctx: AppContext): Promise<ServedRootsViewData> {
  return { allowed_roots: ctx.servedRoots.stored(), effective: await ctx.servedRoots.describe() };
}

/**
 * GET/PUT /settings/served-roots: where served folders (the TFTP root today;
 * NFS exports, file roots and the ISO drop folder later) may lie. Admin only
 * to change: an allowed root is what an operator may then serve to the LAN.
 */
export const servedRootsRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get(
    '/settings/served-roots',
    {
      config: { access: 'viewer' },
      schema: { tags: ['settings'], summary: 'Allowed roots for served folders (built-in, config and admin-set)', response: { 200: Ok(ServedRootsView) } },
    },
    async () => ({ success: true as const, data: await view(ctx) }),
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
      request.auditDetail = { old_allowed_roots: JSON.stringify(ctx.servedRoots.stored()), new_allowed_roots: JSON.stringify(request.body.allowed_roots) };
      // Services whose root is no longer allowed are restarted by the change listeners before this answers.
      await ctx.servedRoots.setAllowed(request.body.allowed_roots);
      return { success: true as const, data: await view(ctx) };
    },
  );
};
