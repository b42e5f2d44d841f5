import type { AreaModule, Kernel } from '../core/area.js';
import type { FilesFacade } from '../files/index.js';
import type { OsImagesFacade } from '../os-images/index.js';
import type { ManagedService } from '../services/service-manager.js';
import { IMAGE_EXPORT_PREFIX, type NfsStatus } from './nfs-contract.js';
import { NfsClients } from './nfs-clients.js';
import { NfsExports } from './nfs-exports.js';
import { nfsRoutes } from './nfs-routes.js';
import { NfsService, type NfsServerView } from './server/nfs-service.js';
import { NfsSettings } from './nfs-settings.js';

export * from './nfs-contract.js';
export { NfsSettings, NFS_DEFAULTS, IMAGE_EXPORT_ID_BASE, type StoredNfsSettings, type StoredNfsExport, type NfsSettingsPatch, type NfsUpdateResult } from './nfs-settings.js';
export { NfsExports, type NfsExportsDeps, type ExportImages } from './nfs-exports.js';
export { NfsClients, MAX_CLIENTS, REFUSED_EVENT_INTERVAL_MS, procedureLabel } from './nfs-clients.js';
export { ClientSubnets, parseClientSubnet, clientSubnetProblems } from './client-subnets.js';
export { nfsRoutes, type NfsRouteDeps } from './nfs-routes.js';
export type { ExportTable, ServedExport, NfsActivity } from './export-table.js';
export { NfsService, type NfsServerView, type NfsServiceDeps } from './server/nfs-service.js';

/** The NFS area's operations as the server, tests and later areas see them (`core.area('nfs')`). */
export interface NfsFacade {
  settings: NfsSettings;
  /** What the MOUNT and NFS programs serve (rebuilt on every change; `refresh()` forces it). */
  exports: NfsExports;
  /** What clients do: the programs report here (NfsActivity); `observeCall` is the RPC server's per-call observer. */
  activity: NfsClients;
  /** GET /services/nfs/status. */
  status(): NfsStatus;
}

/** What the NFS server is built from (server/nfs-service.ts takes these). */
export interface NfsServiceParts {
  settings: NfsSettings;
  exports: NfsExports;
  activity: NfsClients;
  kernel: Pick<Kernel, 'log' | 'events' | 'metrics' | 'network'>;
}

/** The managed service 'nfs': RPC servers for NFS v3 and MOUNT v3 and the portmapper (server/nfs-service.ts). */
const createNfsService = (parts: NfsServiceParts): ManagedService & NfsServerView =>
  new NfsService({ settings: parts.settings, exports: parts.exports, activity: parts.activity, log: parts.kernel.log });

/** os_image events after which the automatic exports (and image exports) may differ. */
const IMAGE_EVENTS = new Set(['os_image.mounted', 'os_image.unmounted', 'os_image.removed', 'os_image.updated', 'os_image.failed']);

/**
 * The NFS area (docs/nfs.md): a read-only NFS v3 server with MOUNT v3 and a
 * portmapper, exporting folders inside the allowed roots and OS images
 * straight from their ISO (mounted images automatically at /iso/<slug>).
 * It needs os-images (image trees, mounted images) and files (the folder
 * browser of browse-path).
 */
export function nfsArea(): AreaModule<'nfs', NfsFacade, { 'os-images': Pick<OsImagesFacade, 'get' | 'list' | 'openTree' | 'addUsageCheck' | 'setNfsExports'>; files: Pick<FilesFacade, 'browser'> }> {
  return {
    name: 'nfs',
    needs: ['os-images', 'files'],
    create(kernel, deps) {
      const { store, servedRoots, services, network, events, metrics } = kernel;
      const log = kernel.log.scope('nfs');
      const images = deps['os-images'];
      const settings = new NfsSettings({ store, roots: servedRoots, images });
      const servedSubnets = () => network.served().flatMap((nic) => [...nic.ipv4, ...nic.ipv6].map((entry) => entry.subnet));
      const exports = new NfsExports({ settings, roots: servedRoots, images, servedSubnets, events, log });
      const activity = new NfsClients({ events, metrics });
      const service = createNfsService({ settings, exports, activity, kernel: { log, events, metrics, network } });

      // Every change that can alter what is exported rebuilds the table; the server keeps running.
      settings.onChange(async (result) => {
        if (result.exportsChanged) await exports.refresh();
      });
      servedRoots.onChange(() => exports.refresh());
      network.onChange(() => {
        if (settings.get().image_clients === null && settings.get().export_mounted_images) void exports.refresh();
      });
      const unsubscribe = events.subscribe((event) => {
        if (IMAGE_EVENTS.has(event.kind)) void exports.refresh();
      });
      // "Boot this ISO" over NFS reads the image's automatic export: say where it is, or why there is none.
      images.setNfsExports({
        exportOf: (slug) => {
          const current = settings.get();
          if (!current.export_mounted_images) {
            return { problem: `mounted images are not exported over NFS (export_mounted_images is off): turn it on in the NFS service's settings, or make the profile without via nfs` };
          }
          const notes: string[] = [];
          if (services.get('nfs').state !== 'running') notes.push('The NFS service is not running: start it (Services → NFS) before machines boot this profile.');
          if ((current.image_clients ?? servedSubnets()).length === 0) notes.push('No client may mount image exports yet: set image_clients in the NFS settings or serve an interface with a subnet.');
          else notes.push(`Clients allowed to mount it: ${(current.image_clients ?? servedSubnets()).join(', ')}.`);
          return { path: `${IMAGE_EXPORT_PREFIX}/${slug}`, notes };
        },
      });
      // Deleting an image a stored export serves is refused (409) and names the export.
      images.addUsageCheck((image) =>
        settings
          .get()
          .exports.filter((entry) => entry.image_id === image.id)
          .map((entry) => ({ kind: 'nfs', label: `NFS export ${entry.id} (${entry.path})` })),
      );

      const status = (): NfsStatus => {
        const running = services.get('nfs').state === 'running';
        return {
          portmapper: service.portmapperState(),
          listen: running ? service.listenAddresses() : [],
          exports: exports.views(),
          clients: activity.list(),
          ...activity.counters(),
        };
      };
      return {
        facade: { settings, exports, activity, status },
        routes: [
          nfsRoutes({
            settings,
            services,
            problemOf: (id) => exports.problemOf(id),
            servedSubnets,
            status,
            browser: deps.files.browser,
            roots: servedRoots,
          }),
        ],
        services: [service],
        async prepare() {
          // The key exists before any handle goes out, and stays: handles survive restarts.
          await settings.ensureHandleKey();
          // Mounted images were restored by os-images' prepare (earlier in the list): the table starts complete.
          await exports.refresh();
        },
        async close() {
          unsubscribe();
          await exports.close();
        },
      };
    },
  };
}
