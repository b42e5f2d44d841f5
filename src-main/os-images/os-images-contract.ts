import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';
import { ProfileSchema } from '../profiles/profiles-contract.js';

/*
 * The OS images API (docs/os-images.md): ISO files uploaded, imported or
 * dropped into a watched folder; read by our ISO 9660 reader; detected,
 * extracted, mounted under /boot/ and booted. Imports only typebox and other
 * contracts (the renderer imports it as @contracts/os-images).
 */

/** How an image came to Bootwright. */
export const IMAGE_SOURCES = ['upload', 'import', 'drop_folder'] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];

/**
 * ready: readable and detected; processing: being hashed, read or detected;
 * error: the file is missing or unreadable (`error` says why). Extraction and
 * mounting are shown beside the state (`extracted`, `mounted`).
 */
export const IMAGE_STATES = ['ready', 'processing', 'error'] as const;
export type ImageState = (typeof IMAGE_STATES)[number];

/** The OS families detection knows; `other` when the ISO boots but is not recognised. */
export const OS_FAMILIES = ['debian', 'ubuntu', 'rhel', 'fedora', 'suse', 'arch', 'alpine', 'windows', 'rescue', 'other'] as const;
export type ImageOsFamily = (typeof OS_FAMILIES)[number];

/**
 * How a machine boots the image over the network: `linux` (kernel + initrds
 * from the mounted ISO with a command line), `windows` (wimboot with the
 * ISO's boot.wim), `sanboot` (iPXE hooks the whole ISO as a disk; BIOS,
 * small images), `none` (nothing bootable found).
 */
export const BOOT_METHODS = ['linux', 'windows', 'sanboot', 'none'] as const;
export type BootMethod = (typeof BOOT_METHODS)[number];

export const EXTRACT_MODES = ['boot', 'full'] as const;
export type ExtractMode = (typeof EXTRACT_MODES)[number];

/** Image display names: printable words people type and sort by. */
export const IMAGE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 ._()+-]{0,127}$';
/** File names of images (no path): what uploads and the images folder accept. */
export const IMAGE_FILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}$';
/** The URL segment of a mounted image (/boot/iso/<slug>/... when mounted; images/<slug>/ in the boot root when extracted). */
export const IMAGE_SLUG_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';
/** An upload's id (the name of its partial file until it completes). */
export const UPLOAD_ID_PATTERN = '^[a-f0-9]{32}$';
/** Extensions an image file may have. */
export const IMAGE_EXTENSIONS = ['.iso', '.img'] as const;

/** What the ISO 9660 reader found in the file's volume descriptors. */
export const IsoInfoSchema = Type.Object({
  volume_id: Type.String(),
  /** Publisher and application identifiers as recorded (trimmed), '' when absent. */
  publisher: Type.String(),
  application: Type.String(),
  /** The volume's creation time as recorded, null when the ISO has none. */
  created_at: nullable<string>('string', { format: 'date-time' }),
  /** Bytes the volume says it spans (logical blocks × block size). */
  volume_bytes: Type.Number(),
  joliet: Type.Boolean(),
  rock_ridge: Type.Boolean(),
  /** UDF descriptors present (Windows ISOs are UDF-bridge): the reader uses the ISO 9660 side. */
  udf: Type.Boolean(),
  /** El Torito boot entries (platform bios / uefi), with their load image size. */
  el_torito: Type.Array(
    Type.Object({
      platform: literalUnion(['bios', 'uefi', 'other'] as const),
      bootable: Type.Boolean(),
      emulation: Type.String({ description: 'no_emulation, floppy_1.2, floppy_1.44, floppy_2.88 or hard_disk' }),
      load_rba: Type.Integer(),
      sector_count: Type.Integer(),
    }),
  ),
  /** What the reader could not use, in words (e.g. "UDF-only content is not read: only its ISO 9660 side"). */
  limitations: Type.Array(Type.String()),
});
export type IsoInfo = Static<typeof IsoInfoSchema>;

/** What detection read from the ISO's own files. */
export const DetectionSchema = Type.Object({
  family: literalUnion(OS_FAMILIES),
  /** e.g. "Debian GNU/Linux", "Ubuntu Server", "Rocky Linux", "Windows 11". */
  distro: Type.String(),
  /** e.g. "12.5.0", "24.04.1", "9.4"; '' when unknown. */
  version: Type.String(),
  /** Debian-style architecture: amd64, arm64, i386…; '' when unknown. */
  arch: Type.String(),
  boot_method: literalUnion(BOOT_METHODS),
  /** Kernel and initrds inside the ISO (tree paths), when boot_method is linux. */
  kernel: nullable<string>('string'),
  initrds: Type.Array(Type.String()),
  /** The kernel command line the ISO's own menu uses (isolinux/GRUB), as found. */
  iso_cmdline: Type.String(),
  /**
   * The command line for a network boot from the mounted image, with
   * {{ image_url }} for the mount's HTTP URL and {{ iso_url }} for the ISO
   * file's (e.g. Ubuntu `ip=dhcp url={{ iso_url }}`, Rocky `inst.repo={{ image_url }}`).
   */
  netboot_cmdline: Type.String(),
  /** Windows: the boot.wim inside the ISO; else null. */
  boot_wim: nullable<string>('string'),
  /** UEFI loaders found under EFI/BOOT (e.g. BOOTX64.EFI). */
  efi_loaders: Type.Array(Type.String()),
  /** The netboot catalog entry this image matches, for offline installs; null when none. */
  catalog_entry: Type.Union([Type.Object({ distro: Type.String(), version: Type.String(), arch: Type.String() }), Type.Null()]),
  /** The files detection decided on, e.g. [".disk/info", "casper/vmlinuz"]. */
  evidence: Type.Array(Type.String()),
  /** What an operator should know (e.g. "the installer needs the ISO in RAM: 2 GiB"). */
  notes: Type.Array(Type.String()),
});
export type Detection = Static<typeof DetectionSchema>;

export const ExtractionSchema = Type.Object({
  mode: literalUnion(EXTRACT_MODES),
  /** Where the files are, relative to the boot root (images/<slug>/). */
  boot_path: Type.String(),
  files: Type.Integer(),
  bytes: Type.Number(),
  at: Timestamp,
});
export type Extraction = Static<typeof ExtractionSchema>;

export const MountSchema = Type.Object({
  /** The URL path the content is served under: /boot/iso/<slug>/ (TFTP iso/<slug>/); the ISO file itself is /boot/iso/<slug>.iso. */
  url_path: Type.String(),
  since: Timestamp,
});
export type ImageMount = Static<typeof MountSchema>;

export const OsImageSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    /** Used in URLs of the mounted content; unique; defaults from the file name. */
    slug: Type.String(),
    description: Type.String(),
    file_name: Type.String(),
    /** Absolute path of the ISO on this machine. */
    path: Type.String(),
    size: Type.Number(),
    /** SHA-256 hex of the whole file; null while it is being computed (import of a large file). */
    sha256: nullable<string>('string'),
    source: literalUnion(IMAGE_SOURCES),
    state: literalUnion(IMAGE_STATES),
    error: nullable<string>('string'),
    iso: Type.Union([IsoInfoSchema, Type.Null()]),
    detection: Type.Union([DetectionSchema, Type.Null()]),
    extracted: Type.Union([ExtractionSchema, Type.Null()]),
    mounted: Type.Union([MountSchema, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'OsImage' },
);
export type OsImage = Static<typeof OsImageSchema>;

export const OsImageUpdateSchema = StrictObject({
  name: Type.Optional(Type.String({ pattern: IMAGE_NAME_PATTERN })),
  slug: Type.Optional(Type.String({ pattern: IMAGE_SLUG_PATTERN })),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type OsImageUpdate = Static<typeof OsImageUpdateSchema>;

/**
 * POST /os-images/upload query. The body is the file: raw
 * (application/octet-stream) or multipart/form-data with one file part.
 * A raw upload is resumable: it is kept as a partial file under its
 * upload_id when the connection breaks, and the client sends the rest with
 * `upload_id` and `offset` (GET /os-images/uploads says how much arrived).
 */
export const UploadQuerySchema = StrictObject({
  file_name: Type.Optional(Type.String({ pattern: IMAGE_FILE_NAME_PATTERN, description: 'Required for a raw body; a multipart part names its own' })),
  name: Type.Optional(Type.String({ pattern: IMAGE_NAME_PATTERN })),
  /** The whole file's size: checked against free space before a byte is written. */
  size: Type.Optional(Type.Number({ minimum: 0 })),
  /** Expected SHA-256 (hex): the upload is refused (and removed) when the file's differs. */
  sha256: Type.Optional(Type.String({ pattern: '^[a-fA-F0-9]{64}$' })),
  upload_id: Type.Optional(Type.String({ pattern: UPLOAD_ID_PATTERN })),
  offset: Type.Optional(Type.Number({ minimum: 0 })),
  overwrite: Type.Optional(Type.Boolean({ description: 'Replace an image file of the same name' })),
});
export type UploadQuery = Static<typeof UploadQuerySchema>;

/** A partial upload waiting to be resumed (removed after 24 h without bytes). */
export const PartialUploadSchema = Type.Object({
  upload_id: Type.String(),
  file_name: Type.String(),
  received: Type.Number(),
  size: nullable<number>('number'),
  updated_at: Timestamp,
});
export type PartialUpload = Static<typeof PartialUploadSchema>;

/** POST /os-images/import: adopt a file already on this machine (inside the allowed roots) without copying it. */
export const ImportBodySchema = StrictObject({
  path: Type.String({ minLength: 1, maxLength: 4096, description: 'Absolute path of an .iso/.img file inside the allowed roots' }),
  name: Type.Optional(Type.String({ pattern: IMAGE_NAME_PATTERN })),
  /** copy: copy into the images folder (the source may go away); link (default): use it where it is. */
  mode: Type.Optional(literalUnion(['link', 'copy'] as const)),
});
export type ImportBody = Static<typeof ImportBodySchema>;

export const ExtractBodySchema = StrictObject({
  mode: Type.Optional(literalUnion(EXTRACT_MODES, { description: 'boot (default): kernel, initrds, loaders and their configs; full: the whole tree' })),
  overwrite: Type.Optional(Type.Boolean()),
});
export type ExtractBody = Static<typeof ExtractBodySchema>;

/** The drop folder and what happens to files that appear in it. */
export const ImageSettingsSchema = Type.Object(
  {
    /** A folder watched for new ISOs (inside the allowed roots); null: none. */
    drop_folder: nullable<string>('string', { maxLength: 4096 }),
    /** Mount every new image as soon as it is detected. */
    auto_mount: Type.Boolean(),
  },
  { $id: 'OsImageSettings' },
);
export type ImageSettings = Static<typeof ImageSettingsSchema>;
export const ImageSettingsUpdateSchema = StrictObject({
  drop_folder: Type.Optional(nullable<string>('string', { maxLength: 4096 })),
  auto_mount: Type.Optional(Type.Boolean()),
});

/** A long operation's progress (upload, hashing, extraction), as events and in the image's row. */
export const IMAGE_PROGRESS_OPERATIONS = ['upload', 'hash', 'extract', 'detect'] as const;

/** Largest upload body accepted (bytes): 64 GiB, beyond any install medium. */
export const MAX_IMAGE_BYTES = 64 * 1024 ** 3;

/**
 * POST /os-images/{id}/boot-profile: "boot this ISO". Creates (or updates, by
 * name) a profile that boots the mounted image the way its detection says
 * (docs/iso-boot.md); the image is mounted first when it is not.
 */
/** Where a "boot this ISO" profile's system takes its medium from. */
export const BOOT_PROFILE_SOURCES = ['http', 'nfs'] as const;
export type BootProfileSource = (typeof BOOT_PROFILE_SOURCES)[number];

export const BootProfileBodySchema = StrictObject({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The profile\'s name; default "ISO <slug>". A profile of that name is updated, else one is created' })),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  via: Type.Optional(
    literalUnion(BOOT_PROFILE_SOURCES, {
      description:
        'Where the booted system takes its medium from: http (default; the mount\'s URLs) or nfs (the image\'s NFS export, /iso/<slug>: casper, live-boot, Anaconda and archiso images); the kernel and initrds come over HTTP either way. The default name of an nfs profile is "ISO <slug> (NFS)"',
    }),
  ),
});
export type BootProfileBody = Static<typeof BootProfileBodySchema>;

export const BootProfileResultSchema = Type.Object(
  {
    profile: ProfileSchema,
    /** true: a new profile; false: the profile of that name was updated. */
    created: Type.Boolean(),
    /** What the operator should know: how it boots, BIOS/UEFI limits, what was mounted. */
    notes: Type.Array(Type.String()),
  },
  { $id: 'OsImageBootProfile' },
);
export type BootProfileResult = Static<typeof BootProfileResultSchema>;
