import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { Ok } from '../core/http-kit/schemas.js';
import type { CheckIgnores } from './check-ignores.js';
import {
  BootloaderCheckReportSchema,
  BootloaderFileSchema,
  CheckFileBodySchema,
  FileCheckSchema,
  IgnoredArchitecturesSchema,
  type BootFileCheck,
  type BootloaderCheckReport,
  type BootloaderFile,
  type CheckFileBody,
  type IgnoredArchitectures,
} from './boot-files-contract.js';

/** What the routes call: the boot loaders of the boot-files area (bootloaders.ts) as far as the API uses them. */
export interface BootloaderOperations {
  files(): Promise<BootloaderFile[]>;
  check(): Promise<BootloaderCheckReport>;
  checkFile(name: string): Promise<BootFileCheck[]>;
}

/** The bundled boot loaders and the checks of what clients will fetch. */
export function bootloaderRoutes(bootloaders: BootloaderOperations, ignores: Pick<CheckIgnores, 'set'>): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/bootloader/files',
      {
        config: { access: 'viewer' },
        schema: { tags: ['boot'], summary: 'Bundled boot loaders with their source package, size, SHA-256 and presence', response: { 200: Ok(Type.Array(BootloaderFileSchema)) } },
      },
      async () => ({ success: true as const, data: await bootloaders.files() }),
    );

    app.get(
      '/bootloader/check',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['boot'],
          summary: 'Check every file the DHCP archmap refers to: present, readable, non-empty, format, checksum; problems with fixes',
          response: { 200: Ok(BootloaderCheckReportSchema) },
        },
      },
      async () => ({ success: true as const, data: await bootloaders.check() }),
    );

    app.post<{ Body: CheckFileBody }>(
      '/bootloader/check-file',
      {
        // A POST, so operator like every other POST (it only reads; the auth matrix holds viewers to GETs).
        config: { access: 'operator' },
        schema: {
          tags: ['boot'],
          summary: 'Check one file in the boot root (and the TFTP root when it differs); changes nothing',
          body: CheckFileBodySchema,
          response: { 200: Ok(FileCheckSchema) },
        },
      },
      async (request) => {
        const results = await bootloaders.checkFile(request.body.name);
        return { success: true as const, data: { name: request.body.name, ok: results.every((result) => result.ok), results } };
      },
    );

    app.put<{ Body: IgnoredArchitectures }>(
      '/bootloader/check/ignored-architectures',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['boot'],
          summary: 'Set the architectures whose check problems are only information (no alert); the whole list, [] ignores none',
          body: IgnoredArchitecturesSchema,
          response: { 200: Ok(IgnoredArchitecturesSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await ignores.set(request.body.architectures) }),
    );
  };
}
