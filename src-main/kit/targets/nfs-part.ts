import { Type } from 'typebox';
import { validationError, type FieldError } from '../../core/errors.js';
import { EXPORT_PATH_PATTERN, MAX_EXPORT_CLIENTS, MAX_EXPORT_PATH_LENGTH, MAX_EXPORTS, NFS_SETTING_LIMITS, PORTMAPPER_MODES, type NfsExportInput, type NfsFacade, type NfsSettingsPatch } from '../../nfs/index.js';
import { normaliseExportPath } from '../../nfs/nfs-settings.js';
import { literalUnion } from '../../core/http-kit/common-contract.js';

/*
 * The NFS settings in a kit (docs/kit.md, "Settings"): ports, portmapper
 * mode, UDP, the automatic image exports and the export list. Left out: the
 * service's on/off flag (the machine's state), the file-handle key (handles
 * are this server's own: another server's key would make them forgeable
 * there) and export ids (they are part of this server's handles). Exports
 * travel by mount path: an import keeps the id of the local export at the
 * same path, so its clients keep their handles. An image export names the
 * image by its slug; images do not travel in a kit, so the target must
 * have it.
 */

/** One export in a kit: a folder (a path on the target, checked against its allowed roots) or an image by slug. */
export interface KitNfsExport {
  path: string;
  folder?: string;
  image?: string;
  clients: string[];
  enabled?: boolean;
  comment?: string;
}

export interface KitNfsPart {
  nfs_port?: number;
  mount_port?: number;
  portmapper?: (typeof PORTMAPPER_MODES)[number];
  udp?: boolean;
  export_mounted_images?: boolean;
  image_clients?: string[] | null;
  exports?: KitNfsExport[];
}

const port = Type.Integer({ minimum: NFS_SETTING_LIMITS.port.min, maximum: NFS_SETTING_LIMITS.port.max });
const subnet = Type.String({ minLength: 2, maxLength: 49 });

export const KitNfsPartSchema = Type.Object(
  {
    nfs_port: Type.Optional(port),
    mount_port: Type.Optional(port),
    portmapper: Type.Optional(literalUnion(PORTMAPPER_MODES)),
    udp: Type.Optional(Type.Boolean()),
    export_mounted_images: Type.Optional(Type.Boolean()),
    image_clients: Type.Optional(Type.Union([Type.Array(subnet, { maxItems: MAX_EXPORT_CLIENTS }), Type.Null()])),
    exports: Type.Optional(
      Type.Array(
        Type.Object(
          {
            path: Type.String({ pattern: EXPORT_PATH_PATTERN, maxLength: MAX_EXPORT_PATH_LENGTH }),
            folder: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
            image: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
            clients: Type.Array(subnet, { minItems: 1, maxItems: MAX_EXPORT_CLIENTS }),
            enabled: Type.Optional(Type.Boolean()),
            comment: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_EXPORTS },
      ),
    ),
  },
  { additionalProperties: false },
);

/** What the part needs: the NFS settings, and the OS images an image export names. */
export interface NfsPartDeps {
  nfs: Pick<NfsFacade, 'settings'>;
  images: { get(id: number): { id: number; slug: string } | undefined; list(): ReadonlyArray<{ id: number; slug: string }> };
}

/** This server's NFS settings in the kit's form. */
export function readNfsPart(deps: NfsPartDeps): KitNfsPart {
  const stored = deps.nfs.settings.get();
  return {
    nfs_port: stored.nfs_port,
    mount_port: stored.mount_port,
    portmapper: stored.portmapper,
    udp: stored.udp,
    export_mounted_images: stored.export_mounted_images,
    image_clients: stored.image_clients === null ? null : [...stored.image_clients],
    exports: stored.exports.map((entry) => {
      const source = entry.folder !== null ? { folder: entry.folder } : { image: deps.images.get(entry.image_id ?? 0)?.slug ?? `#${entry.image_id ?? 0}` };
      return { path: entry.path, ...source, clients: [...entry.clients], enabled: entry.enabled, comment: entry.comment };
    }),
  };
}

/**
 * The NFS settings patch a kit's part makes here: exports matched by path to
 * the local ids, images by slug. Throws VALIDATION_FAILED naming `field`'s
 * entries for a source that is not exactly one of folder and image, or an
 * image this server does not have; the rest is checked by the NFS settings.
 */
export function nfsPatchOf(part: KitNfsPart, deps: NfsPartDeps, field: string): NfsSettingsPatch {
  const { exports, ...server } = part;
  const patch: NfsSettingsPatch = { ...server };
  if (exports === undefined) return patch;
  const localIds = new Map(deps.nfs.settings.get().exports.map((entry) => [normaliseExportPath(entry.path), entry.id]));
  const slugs = new Map(deps.images.list().map((image) => [image.slug.toLowerCase(), image.id]));
  const errors: FieldError[] = [];
  patch.exports = exports.map((entry, index): NfsExportInput => {
    const at = `${field}.exports.${index}`;
    if ((entry.folder === undefined) === (entry.image === undefined)) errors.push({ field: at, message: 'give exactly one of folder and image' });
    let imageId: number | null = null;
    if (entry.image !== undefined) {
      imageId = slugs.get(entry.image.toLowerCase()) ?? null;
      if (imageId === null) errors.push({ field: `${at}.image`, message: `OS image "${entry.image}" is not on this server; images do not travel in a kit: upload or import it first` });
    }
    const id = localIds.get(normaliseExportPath(entry.path));
    return {
      ...(id !== undefined ? { id } : {}),
      path: entry.path,
      folder: entry.folder ?? null,
      image_id: imageId,
      clients: entry.clients,
      ...(entry.enabled !== undefined ? { enabled: entry.enabled } : {}),
      ...(entry.comment !== undefined ? { comment: entry.comment } : {}),
    };
  });
  if (errors.length > 0) throw validationError(errors);
  return patch;
}
