import type { Counter } from 'prom-client';
import { AppError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { normalizeMac } from '../core/mac.js';
import type { EventLog } from '../events/event-log.js';
import type { HostService } from '../hosts/host-service.js';
import type { Host } from '../hosts/host-types.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkService } from '../network/network-service.js';
import { menuScript, type MenuChoiceSection } from '../profiles/script-generator.js';
import type { ProfileService } from '../profiles/profile-service.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { BootPreview } from './boot-scripts-contract.js';
import type { BootMenuSource } from './boot-menu.js';
import type { BootOverride, BootOverrideResult } from './boot-override.js';
import { applyMenuChoice, decideBoot, type BootDecision } from './boot-resolver.js';
import { renderDefaultEntry, type EntryScriptStore } from './entry-script.js';
import { deniedScript, localBootScript, missingMacScript, renderFailedScript } from './fallback-script.js';
import { IDENTITY_QUERY, IPXE_SHEBANG } from '../profiles/ipxe-syntax.js';
import { scriptFiles, expandSettings, withFileStates } from './script-files.js';
import type { BootFilePresence } from '../boot-files/boot-files.js';
import { previewServers } from './preview-servers.js';
import { endpointAt, serverEndpointFor, type HttpEndpoint, type ServerEndpoint } from './server-endpoint.js';
import { bootTemplateData, entryTemplateData, type BootClientInfo } from '../profiles/template-context.js';
import { TemplateError } from '../templates/template-engine.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';

/** The MAC allow/deny lists (implemented by the access area as `ctx.access`). */
export interface BootAccessCheck {
  isAllowed(mac: string): boolean | Promise<boolean>;
}

/** A machine asking for its script: what the entry script sent in the query, and its address. */
export interface BootRequest {
  ip: string;
  /** As sent; null when absent. */
  mac: string | null;
  arch: string | null;
  platform: string | null;
  uuid: string | null;
  serial: string | null;
  /** A boot menu choice (`profile=<id>`). */
  profileId: number | null;
  /** A boot menu choice of a menu source (`choice=<key>`, boot-menu.ts). */
  choice: string | null;
}

/** GET /hosts/{id}/boot-config: exactly what the host would get if it booted now (the contract's shape). */
export type { BootPreview };

export interface BootScriptServiceDeps {
  hosts: HostService;
  profiles: ProfileService;
  entry: EntryScriptStore;
  /** Renders the user templates off the main thread (template-renderer.ts). */
  templates: TemplateRenderer;
  settings: Pick<SettingsService, 'netboot' | 'general'>;
  network: Pick<NetworkService, 'serverAddressFor' | 'served' | 'list'>;
  http: HttpEndpoint;
  /** Whether the boot root has a file (BootFiles.presence): the preview marks the files a script would miss. */
  presence: (path: string) => Promise<BootFilePresence>;
  /** The interfaces DHCP serves (server or proxy mode): the preview lists their subnets too. */
  dhcpInterfaces?: () => string[];
  events: EventLog;
  log: Logger;
  metrics: Metrics;
  /** The access lists, looked up at call time; absent means every MAC may boot. */
  access: () => BootAccessCheck | undefined;
}

interface Rendered {
  script: string;
  error: string | null;
}

/**
 * Builds the scripts iPXE clients fetch: the entry script and each
 * machine's own script, decided by host, group and netboot settings and
 * rendered in the sandbox. At boot nothing throws: a template that fails
 * (or overruns and is stopped, or finds the renderer busy) yields a script
 * that shows the error on the machine and retries.
 */
export class BootScriptService {
  /** The entry script template (GET/PUT /services/ipxe-script). */
  readonly entry: EntryScriptStore;
  private readonly deps: BootScriptServiceDeps;
  private readonly log: Logger;
  private readonly served: Counter<'script' | 'outcome'>;
  private readonly overrides: BootOverride[] = [];
  private readonly menuSources: BootMenuSource[] = [];

  constructor(deps: BootScriptServiceDeps) {
    this.deps = deps;
    this.entry = deps.entry;
    this.log = deps.log.scope('boot-scripts');
    this.served = deps.metrics.counter({
      name: 'bootwright_boot_scripts_served_total',
      help: 'Boot scripts served to iPXE clients, by script (entry, host) and outcome (ok, fallback, denied, invalid)',
      labelNames: ['script', 'outcome'],
    });
  }

  /**
   * Registers a later area's override (boot-override.ts), consulted in order
   * before the normal decision by the boot path and the preview; the first
   * that answers wins.
   */
  addBootOverride(override: BootOverride): void {
    this.overrides.push(override);
  }

  /** Registers a later area's sections of the netboot default menu and the scripts of their choices (boot-menu.ts). */
  addMenuSource(source: BootMenuSource): void {
    this.menuSources.push(source);
  }

  /** The entry script for a client at `clientIp`; a custom template that fails at boot falls back to the default. */
  async entryScript(clientIp: string): Promise<string> {
    const server = this.endpoint(clientIp);
    const data = entryTemplateData(server, this.deps.settings.general().server_name);
    const custom = this.entry.custom();
    if (custom === null) {
      this.served.inc({ script: 'entry', outcome: 'ok' });
      return renderDefaultEntry(data);
    }
    try {
      const script = await this.deps.templates.render(custom, data);
      this.served.inc({ script: 'entry', outcome: 'ok' });
      return script;
    } catch (err) {
      // Any failure, even of the worker itself: the entry script is the first stage, with no retry loop before it.
      const message = errorMessage(err);
      this.log.error(`the iPXE entry script failed to render for ${clientIp}: ${message}; serving the default`);
      this.deps.events.emit({
        kind: 'boot.script_failed',
        level: 'error',
        message: `the iPXE entry script failed to render (${message}); the default was served`,
        ip: clientIp,
        detail: { script: 'entry', error: message },
      });
      this.served.inc({ script: 'entry', outcome: 'fallback' });
      return renderDefaultEntry(data);
    }
  }

  /**
   * The boot path: access check, the boot recorded on the host (an unknown
   * machine becomes a discovered host when the settings say so), the
   * decision, the rendered script and the `boot.script_served` event.
   */
  async hostScript(request: BootRequest): Promise<string> {
    const mac = request.mac === null ? null : normalizeMac(request.mac);
    if (mac === null) {
      this.served.inc({ script: 'host', outcome: 'invalid' });
      this.log.warn(`boot script request from ${request.ip} without a valid MAC (${request.mac ?? 'none'})`);
      return missingMacScript();
    }
    const access = this.deps.access();
    if (access && !(await access.isAllowed(mac))) {
      this.served.inc({ script: 'host', outcome: 'denied' });
      this.deps.events.emit({
        kind: 'boot.denied',
        level: 'warn',
        message: `boot script refused to ${mac} (${request.ip}): denied by the access lists`,
        mac,
        ip: request.ip,
        detail: { arch: request.arch, platform: request.platform },
      });
      return deniedScript(mac);
    }
    const host = await this.deps.hosts.recordBoot(
      mac,
      { ip: request.ip, arch: request.arch, platform: request.platform },
      { discover: this.deps.settings.netboot().record_unknown_hosts },
    );
    const client: BootClientInfo = { ip: request.ip, mac, arch: request.arch, platform: request.platform, uuid: request.uuid, serial: request.serial };
    const overridden = (await this.override(host, client)) ?? (await this.menuChoice(request.choice, host, client));
    if (overridden) return this.serveOverride(overridden, request, host, mac);
    const decision = this.decide(host, request.profileId);
    const rendered = await this.render(decision, host, client);
    const profileName = decision.profile?.name ?? null;
    return this.recordHostScript(request, host, mac, rendered, {
      failedMessage: `the script of profile "${profileName ?? decision.action}" failed to render for ${mac}: ${rendered.error ?? ''}; the machine shows the error and retries`,
      servedMessage: `served ${describe(decision)} to ${mac} (${decision.reason})`,
      detail: { profile: profileName, profile_id: decision.profile?.id ?? null, action: decision.action, reason: decision.reason },
    });
  }

  /** Serves an override's script: the same events and counters as a decided script, then its `served` step. */
  private async serveOverride(result: BootOverrideResult, request: BootRequest, host: Host | null, mac: string): Promise<string> {
    const script = this.recordHostScript(request, host, mac, result, {
      failedMessage: `the boot script for ${mac} failed to build (${result.reason_text}): ${result.error ?? ''}; the machine shows the error`,
      servedMessage: `served ${result.action === 'install' ? 'an installer' : 'local disk boot'} to ${mac} (${result.reason}: ${result.reason_text})`,
      detail: { profile: null, profile_id: null, action: result.action, reason: result.reason, ...result.detail },
    });
    if (result.error === null) await result.served?.();
    return script;
  }

  /** Counts a host script and records it: `boot.script_failed` when it carries an error the machine shows, else `boot.script_served`. */
  private recordHostScript(
    request: BootRequest,
    host: Host | null,
    mac: string,
    rendered: { script: string; error: string | null },
    what: { failedMessage: string; servedMessage: string; detail: Record<string, unknown> },
  ): string {
    const common = { mac, ip: request.ip, ...(host ? { host_id: host.id } : {}) };
    if (rendered.error !== null) {
      this.served.inc({ script: 'host', outcome: 'fallback' });
      const { action: _action, reason: _reason, ...failedDetail } = what.detail;
      this.deps.events.emit({
        kind: 'boot.script_failed',
        level: 'error',
        message: what.failedMessage,
        ...common,
        detail: { script: 'host', ...failedDetail, error: rendered.error },
      });
      return rendered.script;
    }
    this.served.inc({ script: 'host', outcome: 'ok' });
    this.deps.events.emit({
      kind: 'boot.script_served',
      message: what.servedMessage,
      ...common,
      detail: { arch: request.arch, platform: request.platform, uuid: request.uuid, serial: request.serial, ...what.detail },
    });
    return rendered.script;
  }

  /**
   * A menu source's choice, honoured only while the machine's own decision is
   * the netboot default menu (which offers it); anything else gets its own decision.
   */
  private async menuChoice(choice: string | null, host: Host | null, client: BootClientInfo): Promise<BootOverrideResult | null> {
    if (choice === null || this.menuSources.length === 0) return null;
    if (decideBoot(host, this.deps.profiles, this.deps.settings.netboot()).action !== 'menu') return null;
    const server = { ...this.endpoint(client.ip), name: this.deps.settings.general().server_name };
    for (const source of this.menuSources) {
      const result = await source.choose(choice, { host, mac: client.mac, client, server });
      if (result) return result;
    }
    return null;
  }

  private async override(host: Host | null, client: BootClientInfo): Promise<BootOverrideResult | null> {
    if (this.overrides.length === 0) return null;
    const server = { ...this.endpoint(client.ip), name: this.deps.settings.general().server_name };
    for (const override of this.overrides) {
      const result = await override({ host, mac: client.mac, client, server });
      if (result) return result;
    }
    return null;
  }

  /** The boot-config preview; records nothing and emits nothing. */
  async preview(hostId: number): Promise<BootPreview> {
    const host = this.deps.hosts.require(hostId);
    const clientIp = host.last_seen_ip ?? host.ip;
    const servers = previewServers(clientIp, this.deps.network, this.deps.dhcpInterfaces?.() ?? [], this.deps.http);
    // A machine not seen yet: render for the first subnet it may boot from rather than 127.0.0.1.
    const first = servers[0];
    const server = clientIp === null && first ? endpointAt(first.address, this.deps.http.port(), this.deps.http.scheme) : this.endpoint(clientIp ?? '0.0.0.0');
    const access = this.deps.access();
    const denied = access !== undefined && !(await access.isAllowed(host.mac));
    const client: BootClientInfo = { ip: clientIp ?? '0.0.0.0', mac: host.mac, arch: host.arch, platform: host.platform, uuid: null, serial: null };
    const overridden = denied ? null : await this.override(host, client);
    const decision: BootDecision = denied
      ? { action: 'denied', profile: null, reason: 'access_denied', reason_text: `${host.mac} is denied by the access lists` }
      : overridden
        ? { action: overridden.action, profile: null, reason: overridden.reason, reason_text: overridden.reason_text }
        : this.decide(host, null);
    const rendered = denied
      ? { script: deniedScript(host.mac), error: null }
      : overridden
        ? { script: overridden.script, error: overridden.error }
        : await this.render(decision, host, client, server);
    const known = { mac: host.mac, buildarch: host.arch, platform: host.platform };
    return {
      host_id: host.id,
      mac: host.mac,
      action: decision.action,
      reason: decision.reason,
      reason_text: decision.reason_text,
      profile: decision.profile
        ? { id: decision.profile.id, name: decision.profile.name, boot_type: decision.profile.boot_type, script_version: decision.profile.script_version }
        : null,
      script: rendered.script,
      render_error: rendered.error,
      files: await withFileStates(scriptFiles(rendered.script, known), server.boot_url, this.deps.presence),
      entry_url: server.entry_url,
      script_url: `${server.script_url}?${expandSettings(IDENTITY_QUERY, known)}`,
      client_ip: clientIp,
      servers,
    };
  }

  private decide(host: Host | null, chosenId: number | null): BootDecision {
    const base = decideBoot(host, this.deps.profiles, this.deps.settings.netboot());
    if (chosenId === null) return base;
    return applyMenuChoice(base, chosenId, this.deps.profiles) ?? base;
  }

  private async render(decision: BootDecision, host: Host | null, client: BootClientInfo, endpoint?: ServerEndpoint): Promise<Rendered> {
    if (decision.action === 'local') return { script: localBootScript(decision.reason_text), error: null };
    if (decision.action === 'denied') return { script: deniedScript(client.mac), error: null };
    const server = endpoint ?? this.endpoint(client.ip);
    const profile = decision.profile;
    const template = profile ? profile.script : await this.globalMenuTemplate(client);
    const data = bootTemplateData({ host, client, server, serverName: this.deps.settings.general().server_name, profile });
    try {
      return { script: await this.deps.templates.render(template, data), error: null };
    } catch (err) {
      if (!isRenderFailure(err)) throw err;
      // No quotes: iPXE prints them literally.
      const what = profile ? `profile ${profile.name} (id ${profile.id})` : 'the boot menu';
      return { script: renderFailedScript(what, err.message), error: err.message };
    }
  }

  /** The netboot default menu: every profile by name, the menu sources' sections for this machine, local disk last and default. */
  private async globalMenuTemplate(client: BootClientInfo): Promise<string> {
    const profiles = [...this.deps.profiles.all()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    const netboot = this.deps.settings.netboot();
    const sections: MenuChoiceSection[] = [];
    for (const source of this.menuSources) {
      try {
        sections.push(...(await source.sections(client)));
      } catch (err) {
        // One source's failure costs its choices, not the menu.
        this.log.warn(`a boot menu source failed for ${client.mac}: ${errorMessage(err)}`);
      }
    }
    return menuScript(
      {
        title: `Bootwright boot menu (${this.deps.settings.general().server_name})`,
        entries: profiles.map((profile) => ({ profile_id: profile.id, label: profile.name })),
        default_entry: null,
        timeout_seconds: netboot.menu_timeout_seconds,
      },
      `${IPXE_SHEBANG}\n# The netboot default menu for machines without a profile (settings netboot.default_action = menu).`,
      sections,
    );
  }

  private endpoint(clientIp: string): ServerEndpoint {
    return serverEndpointFor(clientIp, this.deps.network, this.deps.http);
  }
}

/** A failure the machine should see and retry after: the template's fault, its time or memory bound, or a busy renderer. */
function isRenderFailure(err: unknown): err is TemplateError | AppError {
  return err instanceof TemplateError || (err instanceof AppError && err.code === 'UNAVAILABLE');
}

function describe(decision: BootDecision): string {
  if (decision.profile) return `profile "${decision.profile.name}"`;
  return decision.action === 'menu' ? 'the boot menu' : 'local disk boot';
}
