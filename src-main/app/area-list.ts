import { auditArea } from '../audit/index.js';
import { authArea, type AuthAreaOptions } from '../auth/index.js';
import { bootFilesArea } from '../boot-files/index.js';
import { baselinesArea, type BaselinesAreaOptions } from '../baselines/index.js';
import { bootScriptsArea } from '../boot-scripts/index.js';
import type { FacadesOf } from '../core/area.js';
import { communityStoreArea, type CommunityStoreOptions } from '../community-store/index.js';
import { dhcpArea } from '../dhcp/index.js';
import { diagnosticsArea, type DiagnosticsOptions } from '../diagnostics/index.js';
import { dnsArea } from '../dns/index.js';
import { eventsArea } from '../events/index.js';
import { filesArea, type FilesAreaOptions } from '../files/index.js';
import { hostsArea } from '../hosts/index.js';
import { kitArea, type KitAreaOptions } from '../kit/index.js';
import { logsArea } from '../logs/index.js';
import { netbootArea, type NetbootAreaOptions } from '../netboot/index.js';
import { networkArea } from '../network/index.js';
import { nfsArea } from '../nfs/index.js';
import { osImagesArea, type OsImagesAreaOptions } from '../os-images/index.js';
import { powerArea, type PowerAreaOptions } from '../power/index.js';
import { profilesArea } from '../profiles/index.js';
import { scriptsArea } from '../scripts/index.js';
import { servicesArea } from '../services/index.js';
import { alertsArea } from '../alerts/index.js';
import { settingsArea } from '../settings/index.js';
import { systemArea } from '../system/index.js';
import { templatesArea } from '../templates/index.js';
import { tftpArea, type TftpThreading } from '../tftp/index.js';

/** What the areas take from the core's options: test seams and tuning, passed through to each area's factory. */
export interface AreaListOptions {
  /** Login throttles and password hashing (tests lower limits and count hashes). */
  auth?: Omit<AuthAreaOptions, 'allowedHosts'>;
  /** Host names the DNS-rebinding guard accepts beyond the machine's own names and addresses. */
  allowedHosts?: readonly string[];
  /** Time limit of update feed requests and download stalls (tests shorten it); default 10 s. */
  updateTimeoutMs?: number;
  /** DNS worker threads (default: one per core, at most 4, where SO_REUSEPORT is available; else 1). */
  dnsWorkers?: number;
  /** Directory of the bundled boot loaders and their manifest; default resources/bootloaders. */
  bootloaderDir?: string;
  /** Where the TFTP server runs: its own worker thread (default) or the main thread. */
  tftpThreading?: TftpThreading;
  /** The clock of boot records and the discovery rate limits (tests); default the system clock. */
  hostsClock?: () => Date;
  /** Power area seams (tests): scheduler clock, WOL transport, BMC timing and connector. */
  power?: PowerAreaOptions;
  /** Netboot area seams (tests): the catalog file and the clock. */
  netboot?: NetbootAreaOptions;
  /** OS images seams: the ISO reader, detector, extractor and mount port (tests pass fakes), drop-folder timing. */
  osImages?: OsImagesAreaOptions;
  /** Files area seams (tests; the lead wires the drop folder and the delete check of os-images). */
  files?: FilesAreaOptions;
  /** Diagnostics seams (tests): run slots, wall-time cap, a wrapper that runs the tools in a namespace. */
  diagnostics?: DiagnosticsOptions;
  /** Baselines seams (tests): a scripts facade in place of the scripts area's. */
  baselines?: BaselinesAreaOptions;
  /** Store seams (tests): the shipped catalog folder and the clock. */
  communityStore?: CommunityStoreOptions;
  /** Kit seams (tests): the clock. */
  kit?: KitAreaOptions;
}

/**
 * The areas of Bootwright, in order (docs/architecture.md, "The area list").
 * The core creates them in this order (an area needs only areas before it),
 * registers their routes and services in this order (the order of the API
 * document and of GET /services), starts them in it and stops them in reverse.
 * Adding an area is one folder and one line here.
 */
export function areaList(options: AreaListOptions = {}) {
  return [
    eventsArea(),
    auditArea(),
    logsArea(),
    authArea({ ...options.auth, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) }),
    servicesArea(),
    settingsArea(),
    alertsArea(),
    networkArea(),
    systemArea(options.updateTimeoutMs !== undefined ? { updateTimeoutMs: options.updateTimeoutMs } : {}),
    dnsArea(options.dnsWorkers ? { workers: options.dnsWorkers } : {}),
    dhcpArea(),
    bootFilesArea(options.bootloaderDir ? { bootloaderDir: options.bootloaderDir } : {}),
    tftpArea(options.tftpThreading ? { threading: options.tftpThreading } : {}),
    templatesArea(),
    profilesArea(),
    hostsArea(options.hostsClock ? { now: options.hostsClock } : {}),
    bootScriptsArea(),
    powerArea(options.power ?? {}),
    netbootArea(options.netboot ?? {}),
    osImagesArea(options.osImages ?? {}),
    filesArea(options.files ?? {}),
    nfsArea(),
    diagnosticsArea(options.diagnostics ?? {}),
    scriptsArea(),
    baselinesArea(options.baselines ?? {}),
    communityStoreArea(options.communityStore ?? {}),
    kitArea(options.kit ?? {}),
  ] as const;
}

/** Each area's facade by name: `core.area('dns')` is the DnsService. */
export type AreaFacades = FacadesOf<ReturnType<typeof areaList>>;
export type AreaName = keyof AreaFacades;
