import { Type, type Static } from 'typebox';
import type { AppContext } from '../../core/app-context.js';
import { MAX_ALLOWED_ROOTS, MAX_ROOT_PATH_LENGTH } from '../../settings/served-roots.js';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

const ServedRootsView = Type.Object(
  {
    allowed_roots: Type.Array(Type.String(), { description: 'The roots an admin allowed (real paths); what PUT replaces' }),
    effective: Type.Array(
      Type.Object({
        path: Type.String(),
        source: Type.Union([Type.Literal('built-in'), Type.Literal('config'), Type.Literal('setting')], {
          description: 'built-in: <data-dir>/boot and <data-dir>/images; config: --allowed-root / BOOTWRIGHT_ALLOWED_ROOTS / allowed_roots; setting: allowed_roots above',
        }),
        problem: Type.Union([Type.String(), Type.Null()], { description: 'Why this root is ignored right now (missing, or a forbidden folder); null when usable' }),
      }),
      { description: 'Every root served folders may lie in, with its source' },
    ),
  },
  { $id: 'ServedRoots' },
);

const ServedRootsPatch = StrictObject({
  allowed_roots: Type.Array(Type.String({ minLength: 1, maxLength: MAX_ROOT_PATH_LENGTH }), {
    maxItems: MAX_ALLOWED_ROOTS,
    description: 'Absolute paths of existing directories; never /, a system folder or the data directory (or a folder containing it)',
  }),
});

async function view(ctx: AppContext): Promise<Static<typeof ServedRootsView>> {
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

  app.put<{ Body: Static<typeof ServedRootsPatch> }>(
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
      const { changed } = await ctx.servedRoots.setAllowed(request.body.allowed_roots);
      // A root that was allowed a moment ago must stop being served now, not at the next restart.
      if (changed && ctx.services.get('tftp').state === 'running' && !(await ctx.servedRoots.check(ctx.tftpSettings.root())).ok) {
        await ctx.services.reload('tftp');
      }
      return { success: true as const, data: await view(ctx) };
    },
  );
};
