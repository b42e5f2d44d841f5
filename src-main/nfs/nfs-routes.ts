import type { FastifyPluginAsync } from 'fastify';
import { roleAllows } from '../core/http-kit/access.js';
import { Ok } from '../core/http-kit/schemas.js';
import type { FileBrowser } from '../files/file-browser.js';
import { applyServiceSettings, type ServiceControl } from '../services/settings-apply.js';
import type { ServedRoots } from '../settings/served-roots.js';
import {
  NfsBrowsePathQuerySchema,
  NfsBrowseResultSchema,
  NfsPathCheckSchema,
  NfsSettingsUpdateSchema,
  NfsSettingsViewSchema,
  NfsStatusSchema,
  NfsValidatePathBodySchema,
  type NfsBrowsePathQuery,
  type NfsSettingsUpdate,
  type NfsSettingsView,
  type NfsStatus,
  type NfsValidatePathBody,
} from './nfs-contract.js';
import { checkExportFolder } from './nfs-path-check.js';
import type { NfsSettings } from './nfs-settings.js';

/** What the routes use: the area's settings and table, the service manager, the folder browser and the served-root policy. */
export interface NfsRouteDeps {
  settings: NfsSettings;
  services: ServiceControl;
  /** Why a stored export is not served now (null when it is). */
  problemOf(id: number): string | null;
  /** The image exports' clients while image_clients is null (the served interfaces' subnets). */
  servedSubnets(): string[];
  status(): NfsStatus;
  browser: Pick<FileBrowser, 'browse'>;
  roots: Pick<ServedRoots, 'check'>;
}

const TAGS = ['services'];

function view(deps: NfsRouteDeps): NfsSettingsView {
  const settings = deps.settings.get();
  return {
    enabled: deps.services.autoStart('nfs'),
    nfs_port: settings.nfs_port,
    mount_port: settings.mount_port,
    portmapper: settings.portmapper,
    udp: settings.udp,
    export_mounted_images: settings.export_mounted_images,
    image_clients: settings.image_clients ?? deps.servedSubnets(),
    image_clients_default: settings.image_clients === null,
    exports: settings.exports.map((entry) => ({ ...entry, problem: deps.problemOf(entry.id) })),
  };
}

/**
 * GET/PUT /services/nfs, GET /services/nfs/status, POST
 * /services/nfs/validate-path and GET /services/nfs/browse-path
 * (docs/nfs.md). Reading is a viewer's; PUT an operator's, but changing
 * exports or ports needs admin (an export hands a folder to the LAN without
 * a login, like the TFTP root); the path checker and browser show this
 * machine's folders, so they are admin's. These static paths win over
 * POST /services/:name/:action in fastify's router (static segments first).
 */
export function nfsRoutes(deps: NfsRouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/services/nfs',
      {
        config: { access: 'viewer' },
        schema: { tags: TAGS, summary: 'NFS settings and exports (each with why it is not served, if it is not)', response: { 200: Ok(NfsSettingsViewSchema) } },
      },
      async () => ({ success: true as const, data: view(deps) }),
    );

    app.put<{ Body: NfsSettingsUpdate }>(
      '/services/nfs',
      {
        config: { access: 'operator' },
        schema: {
          tags: TAGS,
          summary:
            'Change NFS settings (only the fields sent; exports replaces the list: an export with id replaces that one, without id it is new). Ports, UDP or the portmapper restart a running server; exports swap without a restart. Changing exports or ports needs the admin role (403 FORBIDDEN otherwise)',
          body: NfsSettingsUpdateSchema,
          response: { 200: Ok(NfsSettingsViewSchema) },
        },
      },
      async (request) => {
        const { enabled, ...patch } = request.body;
        const role = request.principal?.role;
        const admin = role !== undefined && roleAllows(role, 'admin');
        // Recorded whatever the outcome, so a refused attempt to export a folder shows in the audit log too.
        if (patch.exports !== undefined) {
          request.auditDetail = {
            exports: patch.exports
              .map((entry) => `${entry.path}=${entry.folder ?? (entry.image_id !== undefined && entry.image_id !== null ? `image ${entry.image_id}` : '?')}`)
              .join(', ')
              .slice(0, 1000),
          };
        }
        const result = await deps.settings.update(patch, { mayChangeExports: admin });
        if (result.removedIds.length > 0 || result.addedIds.length > 0) {
          request.auditDetail = { ...request.auditDetail, added_ids: result.addedIds.join(',') || null, removed_ids: result.removedIds.join(',') || null };
        }
        await applyServiceSettings({ services: deps.services, name: 'nfs', enabled, changed: result.serverChanged });
        return { success: true as const, data: view(deps) };
      },
    );

    app.get(
      '/services/nfs/status',
      {
        config: { access: 'viewer' },
        schema: { tags: TAGS, summary: 'What the NFS server serves now: portmapper, listen addresses, exports (with why not), clients and counters since it started', response: { 200: Ok(NfsStatusSchema) } },
      },
      async () => ({ success: true as const, data: deps.status() }),
    );

    app.post<{ Body: NfsValidatePathBody }>(
      '/services/nfs/validate-path',
      {
        config: { access: 'admin' },
        schema: {
          tags: TAGS,
          summary: 'Check a folder proposed for export: exists, a readable directory, inside the allowed roots (judged on its real path); warnings for an empty or already exported folder',
          body: NfsValidatePathBodySchema,
          response: { 200: Ok(NfsPathCheckSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await checkExportFolder(request.body.path, { roots: deps.roots, exports: () => deps.settings.get().exports }) }),
    );

    app.get<{ Querystring: NfsBrowsePathQuery }>(
      '/services/nfs/browse-path',
      {
        config: { access: 'admin' },
        schema: {
          tags: TAGS,
          summary: 'Browse folders inside the allowed roots for the export picker (directories only); without path, the roots themselves',
          querystring: NfsBrowsePathQuerySchema,
          response: { 200: Ok(NfsBrowseResultSchema) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await deps.browser.browse(request.query.path === undefined ? { show: 'directories' } : { path: request.query.path, show: 'directories' }),
      }),
    );
  };
}
