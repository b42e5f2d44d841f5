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

/**
 * The architectures the check ranks by (option 93 client types, PXE and HTTP boot of one processor as one):
 * problems of architectures machines were seen with come first (docs/boot-files.md, "The boot loader check").
 */
export const CHECK_ARCHITECTURE_IDS = ['bios', 'uefi_x64', 'uefi_arm64', 'uefi_ia32', 'uefi_arm32', 'uefi_riscv32', 'uefi_riscv64', 'uefi_loong64', 'other'] as const;
export type CheckArchitectureId = (typeof CHECK_ARCHITECTURE_IDS)[number];

/** One thing wrong with a boot file, with what to do about it. */
export const BootProblemSchema = Type.Object({
  code: Type.String({ description: 'missing, not_a_file, unreadable, empty, wrong_format, checksum_mismatch, outside_root, root_mismatch, shadowed_config' }),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')], {
    description: 'error: machines sent to the file cannot boot; warning: some could not; info: a warning about architectures no machine was seen with',
  }),
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
    referenced_by: Type.Array(Type.String(), { description: 'archmap, grub_chain (the shim or GRUB of an architecture whose machines get GRUB), manifest (required bundled file) or request' }),
    architectures: Type.Array(Type.Enum([...CHECK_ARCHITECTURE_IDS]), { description: 'The client architectures that fetch this file (empty: not known)' }),
    seen: Type.Boolean({ description: 'A machine of one of those architectures was seen (or the architectures are not known)' }),
    ignored: Type.Boolean({ description: 'Every architecture fetching it is ignored (ignored_architectures): its problems are info' }),
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

/** One client architecture in the check: whether machines of it were seen, which loader they get, its problems. */
export const CheckArchitectureSchema = Type.Object(
  {
    id: Type.Enum([...CHECK_ARCHITECTURE_IDS]),
    name: Type.String({ description: 'e.g. ARM64 UEFI' }),
    codes: Type.Array(Type.Integer(), { description: 'Its DHCP option 93 codes' }),
    seen: Type.Boolean({ description: 'A machine of this architecture is in a lease, a DHCP event or the hosts (arch/platform)' }),
    machines: Type.Integer({ description: 'Distinct machines (MACs) seen' }),
    seen_by: Type.Object({
      leases: Type.Integer({ description: 'Machines with a lease of this option 93 code' }),
      events: Type.Integer({ description: 'Machines in DHCP events with this code' }),
      hosts: Type.Integer({ description: 'Hosts whose arch/platform (learned at boot or set) is this architecture' }),
    }),
    loader: Type.Union([Type.Literal('grub'), Type.Literal('ipxe'), Type.Null()], {
      description: 'Its default loader (settings netboot.boot_loaders); null: no choice, the archmap\'s iPXE',
    }),
    grub: Type.Boolean({ description: 'Some of its machines get the signed shim → GRUB chain: the chain\'s files are checked' }),
    grub_reasons: Type.Array(Type.String(), { description: 'Why: the default, a group, hosts with boot_loader grub' }),
    ignored: Type.Boolean({ description: 'An operator chose to ignore it (PUT /bootloader/check/ignored-architectures): its problems are info and raise no alert' }),
    errors: Type.Integer(),
    warnings: Type.Integer(),
    infos: Type.Integer(),
  },
  { $id: 'CheckArchitecture' },
);
export type CheckArchitecture = Static<typeof CheckArchitectureSchema>;

/** One problem of the check, with the file and root it is about and the architectures it affects. */
export const CheckProblemSchema = Type.Object({
  ...BootProblemSchema.properties,
  name: Type.String(),
  root: Type.String(),
  architectures: Type.Array(Type.Enum([...CHECK_ARCHITECTURE_IDS]), { description: 'Affected client architectures; empty: all (the manifest, a profile\'s file)' }),
  seen: Type.Boolean({ description: 'An affected architecture was seen (always true for problems of all architectures)' }),
  ignored: Type.Boolean({ description: 'Every affected architecture is ignored: info, listed last' }),
});
export type CheckProblem = Static<typeof CheckProblemSchema>;

/** PUT /bootloader/check/ignored-architectures: the architectures whose check problems are only information (the whole list). */
export const IgnoredArchitecturesSchema = Type.Object(
  {
    architectures: Type.Array(Type.Enum([...CHECK_ARCHITECTURE_IDS]), { uniqueItems: true, maxItems: CHECK_ARCHITECTURE_IDS.length, description: 'e.g. ["uefi_riscv64", "uefi_loong64"]; [] ignores none' }),
  },
  { additionalProperties: false, $id: 'IgnoredArchitectures' },
);
export type IgnoredArchitectures = Static<typeof IgnoredArchitecturesSchema>;

/**
 * GET /bootloader/check: every file machines will fetch first (the DHCP archmap's files; for architectures whose machines get GRUB,
 * the chain's shim and GRUB), in every served root, and the files profiles name. Problems are ranked: those of architectures
 * machines were seen with first (errors, warnings), then those of architectures nobody booted (their warnings as info).
 */
export const BootloaderCheckReportSchema = Type.Object({
  ok: Type.Boolean({ description: 'false when any problem has severity error (a profile\'s missing file is a warning)' }),
  checked_at: Type.String({ format: 'date-time' }),
  files: Type.Array(BootFileCheckSchema),
  profiles: Type.Array(ProfileFileCheckSchema, { description: 'The files every profile names, in the boot root' }),
  problems: Type.Array(CheckProblemSchema, { description: 'Seen architectures first, then by severity' }),
  architectures: Type.Array(CheckArchitectureSchema, { description: 'Seen first (most machines first), then the others in table order; ignored ones last' }),
  ignored_architectures: IgnoredArchitecturesSchema.properties.architectures,
  boot_root: Type.String({ description: 'The boot root (kernels and initrds are named relative to it)' }),
  tftp_root: Type.Union([Type.String(), Type.Null()], { description: 'The TFTP root when it is not the boot root, else null' }),
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
