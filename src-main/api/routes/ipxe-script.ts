import { Type, type Static } from 'typebox';
import { TEMPLATE_LIMITS } from '../../boot-scripts/template-engine.js';
import { Ok } from '../../core/http-kit/schemas.js';
import { nullable } from './hosts.js';
import type { RoutePluginFactory } from './index.js';

const EntryScriptSchema = Type.Object(
  {
    script: Type.String({ description: 'The entry script template in use' }),
    is_default: Type.Boolean({ description: 'true while the built-in default is in use' }),
    default_script: Type.String({ description: 'The built-in default, for comparison and as a starting point' }),
    updated_at: nullable<string>('string', { format: 'date-time' }),
    updated_by: nullable<string>('string'),
  },
  { $id: 'IpxeEntryScript' },
);

const UpdateBody = Type.Object(
  {
    script: Type.Optional(Type.String({ minLength: 1, maxLength: TEMPLATE_LIMITS.maxSourceChars, description: 'A new template (must render to a script starting with #!ipxe)' })),
    reset: Type.Optional(Type.Literal(true, { description: 'Restore the built-in default' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'Either {"script": "..."} or {"reset": true}' },
);

/** The iPXE entry script every client runs first (docs/hosts-and-profiles.md, "Entry script"). */
export const ipxeScriptRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get(
    '/services/ipxe-script',
    {
      config: { access: 'viewer' },
      schema: { tags: ['services'], summary: 'The iPXE entry script template and the built-in default', response: { 200: Ok(EntryScriptSchema) } },
    },
    async () => ({ success: true as const, data: ctx.bootScripts.entry.view() }),
  );

  app.put<{ Body: Static<typeof UpdateBody> }>(
    '/services/ipxe-script',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['services'],
        summary: 'Replace the entry script template ({"script"}; 400 with the line when it does not render) or restore the default ({"reset": true})',
        body: UpdateBody,
        response: { 200: Ok(EntryScriptSchema) },
      },
    },
    async (request) => {
      const author = request.principal?.username ?? 'unknown';
      const entry = ctx.bootScripts.entry;
      const data = request.body.script !== undefined ? await entry.set(request.body.script, author) : await entry.reset(author);
      return { success: true as const, data };
    },
  );
};
