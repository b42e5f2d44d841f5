import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { IdParams, Ok } from '../../core/http-kit/schemas.js';
import type { ChangeNote, Profile, ProfileInput } from '../../profiles/profile-types.js';
import { AppError } from '../../core/errors.js';
import type { ImageNfsExports } from '../image-ports.js';
import { BootProfileBodySchema, BootProfileResultSchema, type BootProfileBody, type BootProfileResult, type OsImage } from '../os-images-contract.js';
import { defaultProfileName, planBootProfile, type NfsBootExport } from './boot-profile.js';

/** The image lookup and mount "boot this ISO" needs (the lead wires it to the os-images service). */
export interface BootProfileImages {
  /** The image; AppError NOT_FOUND when there is none. */
  requireImage(id: number): OsImage;
  /** Mounts the image when it is not mounted and answers it as it now is (`mounted` set). */
  ensureMounted(id: number): Promise<OsImage>;
}

export interface BootProfileDeps {
  images: BootProfileImages;
  profiles: {
    all(): readonly Profile[];
    create(input: ProfileInput, note: ChangeNote): Promise<Profile>;
    update(id: number, input: ProfileInput, note: ChangeNote): Promise<Profile>;
  };
  /** Where wimboot is under the boot root, or null when there is none (Windows images need it). */
  wimboot(): Promise<string | null>;
  /** The NFS area's image exports, or null when there is no NFS area (NFS boot profiles are refused). */
  nfs(): ImageNfsExports | null;
}

/** The export an NFS boot profile reads, or INVALID_STATE saying why there is none. */
function nfsExportFor(deps: BootProfileDeps, slug: string): NfsBootExport {
  const exports = deps.nfs();
  if (!exports) throw new AppError('INVALID_STATE', 'this server has no NFS service: make the profile without via nfs');
  const found = exports.exportOf(slug);
  if ('problem' in found) throw new AppError('INVALID_STATE', found.problem);
  return found;
}

/**
 * "Boot this ISO": the plan (boot-profile.ts) checked before anything
 * changes (an image that cannot boot is neither mounted nor profiled), then
 * the image mounted if it was not, then the profile of that name updated or
 * created.
 */
export async function makeBootProfile(deps: BootProfileDeps, id: number, body: BootProfileBody, author: string): Promise<BootProfileResult> {
  const image = deps.images.requireImage(id);
  const via = body.via ?? 'http';
  const name = body.name?.trim() || defaultProfileName(image, via);
  const nfs = via === 'nfs' ? nfsExportFor(deps, image.slug) : null;
  const options = { name, wimboot: await deps.wimboot(), nfs, ...(body.description !== undefined ? { description: body.description } : {}) };
  planBootProfile(image, options);
  const wasMounted = image.mounted !== null;
  const mounted = await deps.images.ensureMounted(id);
  const plan = planBootProfile(mounted, options);
  if (!wasMounted) plan.notes.push(`The image was mounted at /boot/iso/${mounted.slug}/ for this profile.`);
  const existing = deps.profiles.all().find((profile) => profile.name.toLowerCase() === name.toLowerCase());
  const note = { author, comment: `boot this ISO: OS image ${mounted.id} (${mounted.slug})` };
  // A profile of that name changing type drops its old type's settings (the profile service keeps only the boot type's).
  const profile = existing ? await deps.profiles.update(existing.id, plan.input, note) : await deps.profiles.create(plan.input, note);
  return { profile, created: !existing, notes: plan.notes };
}

/** POST /os-images/{id}/boot-profile (operator). */
export function bootProfileRoutes(deps: BootProfileDeps): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: Static<typeof IdParams>; Body: BootProfileBody }>(
      '/os-images/:id/boot-profile',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['os-images'],
          summary:
            'Boot this ISO: create (or update, by name) a profile that boots the image as detected (linux: kernel and initrds from the mount, the medium over HTTP or with via nfs over the image\'s NFS export; sanboot: the ISO, BIOS only; windows: wimboot when present), mounting the image first when needed; 409 when it cannot boot',
          params: IdParams,
          body: BootProfileBodySchema,
          response: { 200: Ok(BootProfileResultSchema), 201: Ok(BootProfileResultSchema) },
        },
      },
      async (request, reply) => {
        const result = await makeBootProfile(deps, request.params.id, request.body ?? {}, request.principal?.username ?? 'unknown');
        return reply.code(result.created ? 201 : 200).send({ success: true as const, data: result });
      },
    );
  };
}
