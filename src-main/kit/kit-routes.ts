import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { Ok } from '../core/http-kit/schemas.js';
import { KitExportSchema, KitImportResultSchema, KitImportSchema, MAX_KIT_CHARS, type KitExport, type KitImport } from './kit-contract.js';
import type { KitService } from './kit-service.js';

/** The kit routes (docs/kit.md): export a kit file, import one (dry run first). Admin only: a kit is the whole configuration. */
export function kitRoutes(kit: Pick<KitService, 'export' | 'import'>): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Body: KitExport }>(
      '/kit/export',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['kit'],
          summary:
            'Export the configuration as a kit file (YAML, served as a download). Secrets (BMC passwords, answer-template secrets) are sealed under the passphrase; without one they are left out and the file\'s warnings (and the X-Kit-Warnings header) say so. encrypt_whole seals the whole file.',
          body: KitExportSchema,
          response: { 200: Type.String({ description: 'The kit file (application/yaml)' }) },
        },
      },
      async (request, reply) => {
        const user = request.principal?.username ?? 'unknown';
        const exported = await kit.export(request.body, user);
        // Never the passphrase: what was exported and how.
        request.auditDetail = { sections: exported.sections.join(','), counts: JSON.stringify(exported.counts), encrypted: exported.encrypted, warnings: String(exported.warnings.length) };
        return reply
          .header('content-disposition', `attachment; filename="${exported.filename}"`)
          .header('cache-control', 'no-store')
          .header('x-kit-warnings', String(exported.warnings.length))
          .type('application/yaml; charset=utf-8')
          .send(exported.text);
      },
    );

    app.post<{ Body: KitImport }>(
      '/kit/import',
      {
        config: { access: 'admin' },
        // The file's text inside JSON: a little more than its own limit.
        bodyLimit: MAX_KIT_CHARS * 2,
        schema: {
          tags: ['kit'],
          summary:
            'Import a kit file: dry_run answers the diff per item (created, updated with field changes, unchanged, conflict); otherwise conflicts need on_conflict or resolutions (409 lists them) and everything is checked, then written all or nothing.',
          body: KitImportSchema,
          response: { 200: Ok(KitImportResultSchema) },
        },
      },
      async (request) => {
        const user = request.principal?.username ?? 'unknown';
        const result = await kit.import(request.body, user);
        const counts: Record<string, number> = {};
        for (const item of result.items) counts[item.action] = (counts[item.action] ?? 0) + 1;
        request.auditDetail = { dry_run: String(result.dry_run), counts: JSON.stringify(counts) };
        return { success: true as const, data: result };
      },
    );
  };
}
