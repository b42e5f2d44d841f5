import type { AuthService } from '../auth/auth-service.js';
import type { BootScriptService } from '../boot-scripts/boot-script-service.js';
import type { TemplateRenderer } from '../boot-scripts/template-renderer.js';
import type { HostService } from '../hosts/host-service.js';
import type { ProfileService } from '../profiles/profile-service.js';
import type { BootFiles } from '../boot-files/boot-files.js';
import type { Bootloaders } from '../bootloaders/bootloaders.js';
import type { TftpSettings } from '../servers/tftp/tftp-settings.js';
import type { ServedRoots } from '../settings/served-roots.js';
import type { AppConfig } from './config.js';
import type { LogSink, Logger } from './logger.js';
import type { BuildInfo } from './version.js';
import type { EventLog } from '../events/event-log.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SseSettings } from '../api/sse.js';
import type { ServiceManager } from '../services/service-manager.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { UpdateService } from '../system/update-service.js';
import type { PowerService } from '../power/power-service.js';
import type { Store } from '../store/store.js';
import type { DnsService } from '../dns/server/dns-service.js';
import type { AccessPolicy } from '../dhcp/access-policy.js';
import type { Archmap } from '../dhcp/archmap.js';
import type { DhcpSettings } from '../dhcp/dhcp-settings.js';
import type { LeaseDatabase } from '../dhcp/leases.js';
import type { Reservations } from '../dhcp/reservations.js';

/**
 * The shared operations every area builds on. Route plugins and IPC handlers
 * receive this and call the same domain modules: one implementation, two transports.
 */
export interface AppContext {
  config: AppConfig;
  build: BuildInfo & { electron: string | null };
  store: Store;
  logs: LogSink;
  log: Logger;
  events: EventLog;
  /** The audit trail of mutating API requests (docs/events-and-logs.md). */
  audit: AuditLog;
  /** Heartbeat and retry timing of the SSE streams. */
  sse: SseSettings;
  services: ServiceManager;
  /** The settings sections with change subscriptions (docs/settings-and-status.md). */
  settings: SettingsService;
  /** Network interfaces, the served ones and our address per subnet. */
  network: NetworkService;
  /** This core's Prometheus registry; servers add their counters here. */
  metrics: Metrics;
  /** Update feed check and verified download. */
  updates: UpdateService;
  /** Users, sessions, API tokens and login throttling (docs/auth.md). */
  auth: AuthService;
  /** The boot root (<data-dir>/boot) and the virtual files served from it over TFTP and HTTP (docs/boot-files.md). */
  bootFiles: BootFiles;
  /** The bundled boot loaders: manifest, installation into the roots, checks (docs/boot-files.md). */
  bootloaders: Bootloaders;
  /** The TFTP server's settings (GET/PUT /services/tftp); the root defaults to the boot root. */
  tftpSettings: TftpSettings;
  /** The served-root policy every area that serves a folder to the LAN checks its root with (docs/boot-files.md). */
  servedRoots: ServedRoots;
  /** MAC access control (blacklist, whitelist mode, unauthorized devices); the boot chain asks isAllowed(mac) (docs/dhcp.md). */
  access: AccessPolicy;
  /** DHCP reservations, also linked to host records through setForHost/removeForHost. */
  reservations: Reservations;
  /** Option 93 architecture → first-stage boot file map. */
  archmap: Archmap;
  /** DHCP settings: modes per interface, subnets, ranges, options. */
  dhcpSettings: DhcpSettings;
  /** The DHCP lease table and its journal. */
  leases: LeaseDatabase;
  /** Machines known by MAC: profile, fixed IP, what their last boot taught us (docs/hosts-and-profiles.md). */
  hosts: HostService;
  /** Boot profiles and their versioned scripts. */
  profiles: ProfileService;
  /** The iPXE entry script and per-host scripts, and the boot-config preview. */
  bootScripts: BootScriptService;
  /** The renderer of user templates, off the main thread (docs/hosts-and-profiles.md, Template limits). */
  templates: TemplateRenderer;
  /** The DNS server: settings, explicit records, derived-name sources (docs/dns.md). */
  dns: DnsService;
  /** Wake-on-LAN (history, schedules) and BMC power control over IPMI and Redfish (docs/power.md). */
  power: PowerService;
  startedAt: Date;
}
