import type { BootFilesFacade } from '../boot-files/index.js';
import type { AreaModule } from '../core/area.js';
import type { HostService } from '../hosts/index.js';
import type { DhcpSettings } from '../dhcp/dhcp-settings.js';
import type { Archmap } from '../dhcp/archmap.js';
import type { Reservations } from '../dhcp/reservations.js';
import { bootLoaderPolicy } from './boot-loader-policy.js';
import type { ProfileService } from '../profiles/index.js';
import type { TemplateRenderer } from '../templates/index.js';
import { BootScriptService, type BootAccessCheck } from './boot-script-service.js';
import { bootScriptProvider } from './boot-script-provider.js';
import { bootScriptRoutes } from './boot-scripts-routes.js';
import { EntryScriptStore } from './entry-script.js';

export { MENU_KEY_PATTERN, type BootMenuItem, type BootMenuSection, type BootMenuSource } from './boot-menu.js';
export { BootScriptService, type BootAccessCheck, type BootPreview, type BootRequest } from './boot-script-service.js';
export type { BootOverride, BootOverrideInput, BootOverrideResult } from './boot-override.js';
export { bootScriptProvider, bootRequestFrom } from './boot-script-provider.js';
export { bootScriptRoutes, type BootScriptRouteOperations } from './boot-scripts-routes.js';
export { DEFAULT_ENTRY_TEMPLATE, EntryScriptStore, type EntryScriptView } from './entry-script.js';
export { BOOT_ACTIONS, BOOT_REASONS, type BootAction, type BootReason } from './boot-scripts-contract.js';
export { ENTRY_SCRIPT_PATH, HOST_SCRIPT_PATH, BOOT_HTTP_PREFIX, serverEndpointFor, type HttpEndpoint, type ServerEndpoint } from './server-endpoint.js';

/**
 * The boot scripts area module (docs/architecture.md, "Area folders"): the
 * facade is the BootScriptService (`ctx.bootScripts`: the entry script and
 * per-host scripts, the boot-config preview), the routes are
 * /services/ipxe-script and /hosts/{id}/boot-config. It renders with the
 * templates area's renderer. Its scripts are served as virtual files by the
 * boot files: create() adds them as a virtual-file provider, GRUB
 * configurations too; it tells DHCP which loader each UEFI machine gets.
 */
export function bootScriptsArea(): AreaModule<
  'boot-scripts',
  BootScriptService,
  {
    templates: TemplateRenderer;
    profiles: ProfileService;
    hosts: HostService;
    dhcp: { access: BootAccessCheck; settings: Pick<DhcpSettings, 'current'>; archmap: Pick<Archmap, 'lookup' | 'setLoaderPolicy'>; reservations: Pick<Reservations, 'byMac'> };
    'boot-files': Pick<BootFilesFacade, 'files' | 'bootloaders'>;
  }
> {
  return {
    name: 'boot-scripts',
    needs: ['dhcp', 'boot-files', 'templates', 'profiles', 'hosts'],
    create(kernel, { templates, profiles, hosts, dhcp, 'boot-files': bootFiles }) {
      const bootScripts = new BootScriptService({
        hosts,
        profiles,
        entry: new EntryScriptStore(kernel.store, templates),
        templates,
        settings: kernel.settings,
        network: kernel.network,
        http: kernel.http,
        presence: (path) => bootFiles.files.presence(path),
        events: kernel.events,
        log: kernel.log,
        metrics: kernel.metrics,
        access: () => dhcp.access,
        dhcpInterfaces: () => dhcp.settings.current().interfaces.filter((iface) => iface.mode !== 'off').map((iface) => iface.name),
        reservationBootFile: (mac) => dhcp.reservations.byMac(mac)?.boot_file ?? null,
        archmapFile: (code) => dhcp.archmap.lookup(code)?.boot_file ?? null,
      });
      // DHCP asks per UEFI PXE client whether it gets iPXE or the signed GRUB chain (docs/secure-boot-arm64.md).
      dhcp.archmap.setLoaderPolicy(bootLoaderPolicy({ findHost: (mac) => hosts.findByMac(mac), loaders: () => kernel.settings.netboot().boot_loaders }));
      // The boot loader check reads the same hosts: which machines get GRUB, which architectures booted here.
      bootFiles.bootloaders.setHostSource(() => hosts.all());
      // The entry script and per-host scripts, served as virtual files over TFTP and HTTP /boot/.
      bootFiles.files.addVirtualProvider(bootScriptProvider(bootScripts));
      return { facade: bootScripts, routes: [bootScriptRoutes(bootScripts)], services: [] };
    },
  };
}
