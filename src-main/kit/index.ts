import type { AreaModule } from '../core/area.js';
import type { BaselinesFacade } from '../baselines/baselines-facade.js';
import type { DhcpFacade } from '../dhcp/index.js';
import type { DnsService } from '../dns/index.js';
import type { HostService } from '../hosts/index.js';
import type { NetbootFacade } from '../netboot/index.js';
import type { NfsFacade } from '../nfs/index.js';
import type { OsImagesFacade } from '../os-images/index.js';
import type { PowerService } from '../power/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { ScriptsFacade } from '../scripts/scripts-facade.js';
import type { TftpFacade } from '../tftp/index.js';
import type { KitSection } from './kit-contract.js';
import { KitImporter } from './kit-importer.js';
import { kitImportRows } from './kit-records.js';
import { kitRoutes } from './kit-routes.js';
import { KitService } from './kit-service.js';
import type { KitTarget } from './kit-target.js';
import { answerTemplatesTarget, baselinesTarget, profilesTarget, scriptsTarget } from './targets/content-targets.js';
import { bmcTarget, hostsTarget, wolTarget } from './targets/machine-targets.js';
import { accessListsTarget, dnsRecordsTarget, reservationsTarget } from './targets/network-targets.js';
import { settingsTarget } from './targets/settings-target.js';

export * from './kit-contract.js';
export { KitService } from './kit-service.js';
export { KitImporter } from './kit-importer.js';
export type { KitTarget } from './kit-target.js';

/** Test seams of the kit area. */
export interface KitAreaOptions {
  /** The clock of the export's timestamp. */
  now?: () => Date;
}

export interface KitFacade {
  service: KitService;
  importer: KitImporter;
}

interface KitDeps {
  dns: DnsService;
  dhcp: DhcpFacade;
  tftp: TftpFacade;
  profiles: ProfileService;
  hosts: HostService;
  power: PowerService;
  netboot: NetbootFacade;
  scripts: ScriptsFacade;
  baselines: BaselinesFacade;
  nfs: NfsFacade;
  'os-images': OsImagesFacade;
}

/**
 * The kit area (docs/kit.md): one versioned file with the configuration
 * (settings including NFS, DNS, DHCP, access lists, hosts, profiles, BMC configs, WOL
 * schedules, answer templates, scripts, baselines), exported and imported
 * through the other areas' facades — the last area of the list, since it
 * needs all of them.
 */
export function kitArea(options: KitAreaOptions = {}): AreaModule<'kit', KitFacade, KitDeps> {
  return {
    name: 'kit',
    needs: ['dns', 'dhcp', 'tftp', 'profiles', 'hosts', 'power', 'netboot', 'scripts', 'baselines', 'nfs', 'os-images'],
    async create(kernel, deps) {
      const settings = settingsTarget({ settings: kernel.settings, dhcp: deps.dhcp, dns: deps.dns, tftp: deps.tftp, profiles: deps.profiles, network: kernel.network, services: kernel.services, nfs: deps.nfs, images: deps['os-images'] });
      const targets: Record<KitSection, KitTarget> = {
        settings,
        dns_records: dnsRecordsTarget(deps.dns) as KitTarget,
        scripts: scriptsTarget(deps.scripts) as KitTarget,
        answer_templates: answerTemplatesTarget(deps.netboot, kernel.secrets) as KitTarget,
        profiles: profilesTarget(deps.profiles) as KitTarget,
        hosts: hostsTarget(deps.hosts, deps.profiles) as KitTarget,
        baselines: baselinesTarget(deps.baselines, deps.hosts, deps.profiles) as KitTarget,
        dhcp_reservations: reservationsTarget(deps.dhcp) as KitTarget,
        access_lists: accessListsTarget(deps.dhcp) as KitTarget,
        bmc_configs: bmcTarget(deps.power, deps.hosts) as KitTarget,
        wol_schedules: wolTarget(deps.power, deps.hosts) as KitTarget,
      };
      const importer = new KitImporter({ targets, imports: kitImportRows(kernel.store), events: kernel.events, log: kernel.log });
      // An import a crash interrupted is undone before anything can read its half-written state.
      await importer.recover();
      const service = new KitService({ targets, importer, serverName: () => kernel.settings.general().server_name, version: kernel.build.version, now: options.now ?? (() => new Date()) });
      return { facade: { service, importer }, routes: [kitRoutes(service)], services: [] };
    },
  };
}
