import { Type, type Static } from 'typebox';
import { Ok, StrictObject } from '../../core/http-kit/schemas.js';
import type { RoutePluginFactory } from './index.js';

const SourceSchema = Type.Object({
  package: Type.String({ description: 'Debian package the file was taken from' }),
  version: Type.String(),
  path: Type.String({ description: 'Path of the file inside the package' }),
});

const BootloaderFileSchema = Type.Object(
  {
    name: Type.String({ description: 'File name in the boot root' }),
    architecture: Type.String({ description: 'bios, uefi-x64, uefi-arm64 or uefi-ia32' }),
    format: Type.String({ description: 'pxe (BIOS network boot program) or pe (UEFI PE/COFF image)' }),
    optional: Type.Boolean({ description: 'Part of the optional Secure Boot chain' }),
    description: Type.String(),
    size: Type.Integer(),
    sha256: Type.String(),
    present: Type.Boolean({ description: 'In the boot root (and the TFTP root when it differs)' }),
    source: SourceSchema,
  },
  { $id: 'BootloaderFile' },
);

const ProblemSchema = Type.Object({
  code: Type.String({ description: 'missing, not_a_file, unreadable, empty, wrong_format, checksum_mismatch, outside_root' }),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
  message: Type.String(),
  fix: Type.String({ description: 'What to do about it' }),
});

const FileCheckSchema = Type.Object(
  {
    name: Type.String(),
    root: Type.String({ description: 'The root the file was checked in' }),
    architecture: Type.Union([Type.String(), Type.Null()]),
    bundled: Type.Boolean({ description: 'Listed in the bundled manifest' }),
    optional: Type.Boolean(),
    referenced_by: Type.Array(Type.String(), { description: 'archmap, manifest (required bundled file) or request' }),
    present: Type.Boolean(),
    readable: Type.Boolean(),
    size: Type.Union([Type.Integer(), Type.Null()]),
    format: Type.Union([Type.String(), Type.Null()], { description: 'Detected format: pxe, pe or null' }),
    sha256: Type.Union([Type.String(), Type.Null()]),
    checksum: Type.Union([Type.Literal('match'), Type.Literal('mismatch'), Type.Literal('unknown')]),
    ok: Type.Boolean(),
    problems: Type.Array(ProblemSchema),
  },
  { $id: 'BootFileCheck' },
);

const CheckReportSchema = Type.Object({
  ok: Type.Boolean({ description: 'false when any problem has severity error' }),
  checked_at: Type.String({ format: 'date-time' }),
  files: Type.Array(FileCheckSchema),
  problems: Type.Array(Type.Object({ ...ProblemSchema.properties, name: Type.String(), root: Type.String() })),
});

const CheckFileBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Path relative to the boot root, e.g. ipxe.efi' }),
});

/** The bundled boot loaders and the checks of what clients will fetch. */
export const bootloaderRoutes: RoutePluginFactory = (ctx) => async (app) => {
  app.get(
    '/bootloader/files',
    {
      config: { access: 'viewer' },
      schema: { tags: ['boot'], summary: 'Bundled boot loaders with their source package, size, SHA-256 and presence', response: { 200: Ok(Type.Array(BootloaderFileSchema)) } },
    },
    async () => ({ success: true as const, data: await ctx.bootloaders.files() }),
  );

  app.get(
    '/bootloader/check',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['boot'],
        summary: 'Check every file the DHCP archmap refers to: present, readable, non-empty, format, checksum; problems with fixes',
        response: { 200: Ok(CheckReportSchema) },
      },
    },
    async () => ({ success: true as const, data: await ctx.bootloaders.check() }),
  );

  app.post<{ Body: Static<typeof CheckFileBody> }>(
    '/bootloader/check-file',
    {
      // A POST, so operator like every other POST (it only reads; the auth matrix holds viewers to GETs).
      config: { access: 'operator' },
      schema: {
        tags: ['boot'],
        summary: 'Check one file in the boot root (and the TFTP root when it differs); changes nothing',
        body: CheckFileBody,
        response: { 200: Ok(Type.Object({ name: Type.String(), ok: Type.Boolean(), results: Type.Array(FileCheckSchema) })) },
      },
    },
    async (request) => {
      const results = await ctx.bootloaders.checkFile(request.body.name);
      return { success: true as const, data: { name: request.body.name, ok: results.every((result) => result.ok), results } };
    },
  );
};
