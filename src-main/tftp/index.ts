import type { BootFilesFacade } from '../boot-files/index.js';
import type { AreaModule } from '../core/area.js';
import { TftpService, type TftpThreading } from './server/tftp-service.js';
import { tftpRoutes } from './tftp-routes.js';
import { TftpSettings } from './tftp-settings.js';

export {
  MAX_BLKSIZE,
  MAX_WINDOWSIZE,
  MIN_TIMEOUT_S,
  MAX_TIMEOUT_S,
  TftpSettingsViewSchema,
  TftpSettingsUpdateSchema,
  type TftpSettingsView,
  type TftpSettingsUpdate,
} from './tftp-contract.js';
export { TftpSettings, TFTP_DEFAULTS, TFTP_SETTING_LIMITS, type StoredTftpSettings, type TftpSettingsPatch, type TftpRootChange } from './tftp-settings.js';
export { tftpRoutes, type TftpRouteDeps } from './tftp-routes.js';
export { TftpService, type TftpServiceDeps, type TftpThreading } from './server/tftp-service.js';

/** The TFTP area's operations as other areas see them (`ctx.tftpSettings`). */
export interface TftpFacade {
  /** The server's stored settings; the root defaults to the boot root. */
  settings: TftpSettings;
  service: TftpService;
}

/** Options of the TFTP area the core passes through from its own (tests and benches set them). */
export interface TftpAreaOptions {
  /** Where the server runs: its own worker thread (default) or the main thread. */
  threading?: TftpThreading;
}

/**
 * The TFTP area module (docs/boot-files.md): the TFTP server serving the boot
 * root (or another allowed root) with the boot-files area's virtual files and
 * bundled loaders; routes GET/PUT /services/tftp. It needs boot-files: the
 * boot root is its default root, and its own root joins the roots the loader
 * checks and installation cover.
 */
export function tftpArea(options: TftpAreaOptions = {}): AreaModule<'tftp', TftpFacade, { 'boot-files': BootFilesFacade }> {
  return {
    name: 'tftp',
    needs: ['boot-files'],
    create(kernel, deps) {
      const { store, servedRoots, services, network, events, metrics, log } = kernel;
      const { files: bootFiles, bootloaders } = deps['boot-files'];
      const settings = new TftpSettings(store, bootFiles.root, servedRoots);
      bootloaders.addRoots(() => [settings.root()]);
      const service = new TftpService({ settings, bootFiles, bootloaders, network, events, metrics, log, ...(options.threading ? { threading: options.threading } : {}) });
      // A root that was allowed a moment ago must stop being served now, not at the next restart: the restart re-checks it (and fails).
      servedRoots.onChange(async () => {
        if (services.get('tftp').state === 'running' && !(await servedRoots.check(settings.root())).ok) await services.reload('tftp');
      });
      return { facade: { settings, service }, routes: [tftpRoutes({ settings, services })], services: [service] };
    },
  };
}
