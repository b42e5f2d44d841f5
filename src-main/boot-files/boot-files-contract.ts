import { Type, type Static } from 'typebox';

/*
 * The boot-files API's contract: the TypeBox schemas of /api/v1/bootloader/*
 * (the bundled boot loaders and the checks of what clients will fetch). It
 * imports nothing but typebox and other contracts (a test checks it) so the
 * renderer can import it too (alias @contracts/boot-files).
 */

const BootloaderSourceSchema = Type.Object({
  package: Type.String({ description: 'Debian package the file was taken from' }),
  version: Type.String(),
  path: Type.String({ description: 'Path of the file inside the package' }),
});

/** GET /bootloader/files: one bundled boot loader and whether every served root has it. */
export const BootloaderFileSchema = Type.Object(
  {
    name: Type.String({ description: 'File name in the boot root' }),
    architecture: Type.String({ description: 'bios, uefi-x64, uefi-arm64 or uefi-ia32' }),
    format: Type.String({ description: 'pxe (BIOS network boot program) or pe (UEFI PE/COFF image)' }),
    optional: Type.Boolean({ description: 'Part of the optional Secure Boot chain' }),
    description: Type.String(),
    size: Type.Integer(),
    sha256: Type.String(),
    present: Type.Boolean({ description: 'In the boot root (and the TFTP root when it differs)' }),
    source: BootloaderSourceSchema,
  },
  { $id: 'BootloaderFile' },
);
export type BootloaderFile = Static<typeof BootloaderFileSchema>;

/** One thing wrong with a boot file, with what to do about it. */
export const BootProblemSchema = Type.Object({
  code: Type.String({ description: 'missing, not_a_file, unreadable, empty, wrong_format, checksum_mismatch, outside_root' }),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
  message: Type.String(),
  fix: Type.String({ description: 'What to do about it' }),
});
export type BootProblem = Static<typeof BootProblemSchema>;

/** One file checked in one root. */
export const BootFileCheckSchema = Type.Object(
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
    problems: Type.Array(BootProblemSchema),
  },
  { $id: 'BootFileCheck' },
);
export type BootFileCheck = Static<typeof BootFileCheckSchema>;

/**
 * Where a file a profile names comes from: present (under the boot root), served (by a provider: a netboot
 * catalog file fetched when a machine asks, a generated script), missing, refused (outside the boot root),
 * remote (an absolute URL, not checked) or templated (built by {{ }} or ${} at boot time, not checked).
 */
export const PROFILE_FILE_STATES = ['present', 'served', 'missing', 'refused', 'remote', 'templated'] as const;
export type ProfileFileState = (typeof PROFILE_FILE_STATES)[number];

/** One file a profile names (its kernel, an initrd, a chain or sanboot URL) and whether the boot root has it. */
export const ProfileFileCheckSchema = Type.Object(
  {
    profile_id: Type.Integer(),
    profile_name: Type.String(),
    field: Type.String({ description: 'linux.kernel, linux.initrds[0], chain.url or sanboot.url' }),
    path: Type.String({ description: 'As the profile writes it' }),
    state: Type.Enum([...PROFILE_FILE_STATES], { description: 'present, served, missing, refused, remote or templated' }),
  },
  { $id: 'ProfileFileCheck' },
);
export type ProfileFileCheck = Static<typeof ProfileFileCheckSchema>;

/** GET /bootloader/check: every file the DHCP archmap refers to, in every served root, and the files profiles name. */
export const BootloaderCheckReportSchema = Type.Object({
  ok: Type.Boolean({ description: 'false when any problem has severity error (a profile\'s missing file is a warning)' }),
  checked_at: Type.String({ format: 'date-time' }),
  files: Type.Array(BootFileCheckSchema),
  profiles: Type.Array(ProfileFileCheckSchema, { description: 'The files every profile names, in the boot root' }),
  problems: Type.Array(Type.Object({ ...BootProblemSchema.properties, name: Type.String(), root: Type.String() })),
});
export type BootloaderCheckReport = Static<typeof BootloaderCheckReportSchema>;

export const CheckFileBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'Path relative to the boot root, e.g. ipxe.efi' }),
  },
  { additionalProperties: false },
);
export type CheckFileBody = Static<typeof CheckFileBodySchema>;

/** POST /bootloader/check-file: one file in every served root. */
export const FileCheckSchema = Type.Object({ name: Type.String(), ok: Type.Boolean(), results: Type.Array(BootFileCheckSchema) });
export type FileCheck = Static<typeof FileCheckSchema>;
