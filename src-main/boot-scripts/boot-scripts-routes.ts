import type { FastifyPluginAsync } from 'fastify';
import { type Static } from 'typebox';
import { IdParams, Ok } from '../core/http-kit/schemas.js';
import type { BootScriptService } from './boot-script-service.js';
import { BootPreviewSchema, EntryScriptSchema, EntryScriptUpdateSchema } from './boot-scripts-contract.js';

/** What the routes call: the boot scripts area's facade as far as the API uses it. */
export type BootScriptRouteOperations = Pick<BootScriptService, 'entry' | 'preview'>;

/**
 * The boot scripts API: the iPXE entry script every client runs first
 * (docs/hosts-and-profiles.md, "Entry script") and the boot-config preview of
 * a host (what it would receive if it booted now).
 */
export function bootScriptRoutes(bootScripts: BootScriptRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: Static<typeof IdParams> }>(
      '/hosts/:id/boot-config',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['hosts'],
          summary: 'What the host would receive if it booted now: rendered script, profile and why, files it would fetch',
          params: IdParams,
          response: { 200: Ok(BootPreviewSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await bootScripts.preview(request.params.id) }),
    );

    app.get(
      '/services/ipxe-script',
      {
        config: { access: 'viewer' },
        schema: { tags: ['services'], summary: 'The iPXE entry script template and the built-in default', response: { 200: Ok(EntryScriptSchema) } },
      },
      async () => ({ success: true as const, data: bootScripts.entry.view() }),
    );

    app.put<{ Body: Static<typeof EntryScriptUpdateSchema> }>(
      '/services/ipxe-script',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['services'],
          summary: 'Replace the entry script template ({"script"}; 400 with the line when it does not render) or restore the default ({"reset": true})',
          body: EntryScriptUpdateSchema,
          response: { 200: Ok(EntryScriptSchema) },
        },
      },
      async (request) => {
        const author = request.principal?.username ?? 'unknown';
        const entry = bootScripts.entry;
        const data = request.body.script !== undefined ? await entry.set(request.body.script, author) : await entry.reset(author);
        return { success: true as const, data };
      },
    );
  };
}
