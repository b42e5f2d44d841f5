import { Type, type Static } from 'typebox';
import { literalUnion, nullable, StrictObject, Timestamp } from '../core/http-kit/common-contract.js';
import { BrowseResultSchema, type BrowseResult } from '../files/files-contract.js';

/*
 * The NFS API's contract: /api/v1/services/nfs (settings and exports),
 * /services/nfs/status, /services/nfs/validate-path and
 * /services/nfs/browse-path. It imports nothing but typebox and other
 * contracts so the renderer can import it too (alias @contracts/nfs).
 *
 * The server is read-only NFS v3 (RFC 1813) with MOUNT v3 and a portmapper
 * (RFC 1833) of its own or the system's rpcbind (docs/nfs.md).
 */

/** A mount path: '/'-separated segments of letters, digits, '.', '_' and '-' (no '.' or '..' segment). */
export const EXPORT_PATH_PATTERN = '^(/(?!\\.{1,2}(/|$))[A-Za-z0-9._-]+)+$';
export const MAX_EXPORT_PATH_LENGTH = 255;
export const MAX_EXPORTS = 64;
export const MAX_EXPORT_CLIENTS = 64;
/** Where mounted OS images are exported when export_mounted_images is on: /iso/<slug> (as HTTP serves them under /boot/iso/<slug>/). */
export const IMAGE_EXPORT_PREFIX = '/iso';

export const PORTMAPPER_MODES = ['auto', 'own', 'rpcbind', 'off'] as const;
export type PortmapperMode = (typeof PORTMAPPER_MODES)[number];

export const NFS_SETTING_LIMITS = {
  port: { min: 1, max: 65535 },
} as const;

const port = (description: string) => Type.Integer({ minimum: NFS_SETTING_LIMITS.port.min, maximum: NFS_SETTING_LIMITS.port.max, description });

/** An IPv4 or IPv6 subnet in CIDR form ("192.168.50.0/24", "fd00::/64"); a bare address means /32 or /128. */
const ClientSubnet = Type.String({ minLength: 2, maxLength: 49, description: 'Allowed client subnet, CIDR ("192.168.50.0/24", "fd00::/64"); 0.0.0.0/0 allows every IPv4 client' });

const exportFields = {
  path: Type.String({ pattern: EXPORT_PATH_PATTERN, maxLength: MAX_EXPORT_PATH_LENGTH, description: 'The path clients mount (server:/path); unique; /iso/… is reserved for mounted images when export_mounted_images is on' }),
  folder: nullable<string>('string', { maxLength: 4096, description: 'Absolute path of the exported folder, inside an allowed root (GET /settings/served-roots); null when image_id is set' }),
  image_id: nullable<number>('integer', { minimum: 1, description: 'The OS image exported straight from its ISO (no extraction); null when folder is set' }),
  clients: Type.Array(ClientSubnet, { minItems: 1, maxItems: MAX_EXPORT_CLIENTS, description: 'Subnets whose clients may mount and read it; everyone else is refused and counted' }),
  enabled: Type.Boolean({ description: 'Served; false keeps the export stored but refuses it' }),
  comment: Type.String({ maxLength: 200 }),
};

/** One export as stored and shown. */
export const NfsExportSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Stable id: part of every file handle, so clients keep their handles across restarts' }),
    ...exportFields,
    /** Why it is not served right now (folder missing or outside the allowed roots, image gone or unreadable); null when served. */
    problem: nullable<string>('string'),
  },
  { $id: 'NfsExport' },
);
export type NfsExport = Static<typeof NfsExportSchema>;

/** An export in PUT /services/nfs: without id it is new; with the id of a stored export it replaces that one (keeping its handles). */
export const NfsExportInputSchema = StrictObject({
  id: Type.Optional(Type.Integer({ minimum: 1 })),
  path: exportFields.path,
  folder: Type.Optional(exportFields.folder),
  image_id: Type.Optional(exportFields.image_id),
  clients: exportFields.clients,
  enabled: Type.Optional(exportFields.enabled),
  comment: Type.Optional(exportFields.comment),
});
export type NfsExportInput = Static<typeof NfsExportInputSchema>;

/** GET /services/nfs. */
export const NfsSettingsViewSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Runs (and starts with the app); false stops it. The service auto-start flag' }),
    nfs_port: port('TCP and UDP port of NFS v3 (and MOUNT v3 too); default 2049'),
    mount_port: port('TCP and UDP port of MOUNT v3 (also served on nfs_port); default 20048'),
    portmapper: literalUnion(PORTMAPPER_MODES, {
      description:
        'auto: answer on port 111 ourselves, or register with the rpcbind that owns it; own: always our own (fails if 111 is taken); rpcbind: register with the system rpcbind; off: none (clients must be given port= and mountport=)',
    }),
    udp: Type.Boolean({ description: 'Also serve over UDP (TCP is always served); default true' }),
    export_mounted_images: Type.Boolean({ description: 'Export every mounted OS image at /iso/<slug>, read straight from its ISO; default true' }),
    image_clients: Type.Array(ClientSubnet, { maxItems: MAX_EXPORT_CLIENTS, description: 'Subnets allowed to mount the image exports; default the subnets of the served interfaces' }),
    image_clients_default: Type.Boolean({ description: 'true while none are set (stored null): image_clients is then the served interfaces\' subnets and follows them' }),
    exports: Type.Array(NfsExportSchema, { maxItems: MAX_EXPORTS }),
  },
  { $id: 'NfsSettings' },
);
export type NfsSettingsView = Static<typeof NfsSettingsViewSchema>;

/** PUT /services/nfs: only the fields sent change; `exports` replaces the whole list. */
export const NfsSettingsUpdateSchema = StrictObject({
  enabled: Type.Optional(Type.Boolean()),
  nfs_port: Type.Optional(port('port')),
  mount_port: Type.Optional(port('port')),
  portmapper: Type.Optional(literalUnion(PORTMAPPER_MODES)),
  udp: Type.Optional(Type.Boolean()),
  export_mounted_images: Type.Optional(Type.Boolean()),
  image_clients: Type.Optional(Type.Union([Type.Array(ClientSubnet, { maxItems: MAX_EXPORT_CLIENTS }), Type.Null()], { description: 'Subnets allowed to mount the image exports; null: back to the subnets of the served interfaces' })),
  exports: Type.Optional(Type.Array(NfsExportInputSchema, { maxItems: MAX_EXPORTS })),
});
export type NfsSettingsUpdate = Static<typeof NfsSettingsUpdateSchema>;

/** One client seen since the service started. */
export const NfsClientSchema = Type.Object({
  address: Type.String(),
  /** The export paths it has mounted (MNT without UMNT). */
  mounts: Type.Array(Type.String()),
  first_seen: Timestamp,
  last_seen: Timestamp,
  requests: Type.Integer({ minimum: 0 }),
  bytes_read: Type.Integer({ minimum: 0 }),
  refused: Type.Integer({ minimum: 0, description: 'Requests refused because the client is outside the export\'s subnets' }),
});
export type NfsClient = Static<typeof NfsClientSchema>;

/** An export as served now: the stored ones and the mounted images. */
export const NfsServedExportSchema = Type.Object({
  /** The stored export's id; for a mounted image's automatic export, the id it serves under (stable per image). */
  id: Type.Integer(),
  path: Type.String(),
  source: Type.String({ description: '"folder /srv/live" or "image 3 (debian-12.8.0-amd64-netinst.iso)"' }),
  automatic: Type.Boolean({ description: 'A mounted image exported by export_mounted_images' }),
  clients: Type.Array(Type.String()),
  /** Why it is not served; null when it is. */
  problem: nullable<string>('string'),
});
export type NfsServedExport = Static<typeof NfsServedExportSchema>;

/** GET /services/nfs/status. */
export const NfsStatusSchema = Type.Object(
  {
    /** How clients find our ports: our own portmapper on 111, registered with the system's rpcbind, or none. */
    portmapper: Type.Object({
      mode: literalUnion(['own', 'rpcbind', 'none'] as const),
      detail: Type.String({ description: 'In words, e.g. "our portmapper on tcp/udp 0.0.0.0:111" or "registered with rpcbind (it owns port 111)"' }),
    }),
    listen: Type.Array(Type.String()),
    exports: Type.Array(NfsServedExportSchema),
    clients: Type.Array(NfsClientSchema),
    /** Since the service started. */
    requests: Type.Integer({ minimum: 0 }),
    bytes_read: Type.Integer({ minimum: 0 }),
    refused: Type.Integer({ minimum: 0 }),
  },
  { $id: 'NfsStatus' },
);
export type NfsStatus = Static<typeof NfsStatusSchema>;

/** POST /services/nfs/validate-path. */
export const NfsValidatePathBodySchema = StrictObject({
  path: Type.String({ minLength: 1, maxLength: 4096, description: 'Absolute path of a folder proposed for export' }),
});
export type NfsValidatePathBody = Static<typeof NfsValidatePathBodySchema>;

export const NfsPathCheckSchema = Type.Object({
  path: Type.String(),
  /** Its real path (symlinks resolved); null when it does not exist. */
  real_path: nullable<string>('string'),
  valid: Type.Boolean({ description: 'Exists, is a readable directory inside an allowed root, and is no symlink escape' }),
  /** Why it cannot be exported (empty when valid). */
  problems: Type.Array(Type.String()),
  /** What the operator should know but does not stop the export (e.g. "already exported as /live", "empty folder"). */
  warnings: Type.Array(Type.String()),
});
export type NfsPathCheck = Static<typeof NfsPathCheckSchema>;

/** GET /services/nfs/browse-path: folders under the allowed roots, for the export picker. */
export const NfsBrowsePathQuerySchema = StrictObject({
  /** An absolute path; absent: the allowed roots themselves. */
  path: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type NfsBrowsePathQuery = Static<typeof NfsBrowsePathQuerySchema>;

export const NfsBrowseResultSchema = BrowseResultSchema;
export type NfsBrowseResult = BrowseResult;
