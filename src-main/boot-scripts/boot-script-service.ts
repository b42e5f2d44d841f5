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
import type { BootProgram, MenuProgram } from './boot-program.js';
import { profileProgram } from './profile-program.js';
import { entryGrubConfig, renderGrubConfig, type GrubTarget } from './grub/grub-config.js';
import { grubHostPath } from './grub/grub-paths.js';
import { previewLoader } from './loader-preview.js';
import { GRUB_CHAINS, loaderArchitectureOfMachine, type BootLoader } from '../dhcp/boot-loader-chains.js';

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
  /** A DHCP reservation's own first-stage file for a MAC (it wins over the loader choice); absent: none. */
  reservationBootFile?: (mac: string) => string | null;
  /** The archmap's TFTP file for an option 93 code (the iPXE first stage), or null. */
  archmapFile?: (code: number) => string | null;
}

/** What a loader serves a machine: its iPXE script or its GRUB configuration. */
type LoaderKind = BootLoader;

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
  hostScript(request: BootRequest): Promise<string> {
    return this.serveHost(request, 'ipxe');
  }

  /**
   * The same boot path for a machine on the signed GRUB chain: its GRUB
   * configuration (grub/grub-config.ts) from the same decision, fetched over
   * TFTP as `grub/host/<cpu>/<mac>.cfg` (grub/grub-paths.ts).
   */
  hostGrubConfig(request: BootRequest): Promise<string> {
    return this.serveHost(request, 'grub');
  }

  /** The configuration at a GRUB chain's prefix for a client at `clientIp`: it loads the machine's own. */
  grubEntry(clientIp: string): string {
    return entryGrubConfig(this.endpoint(clientIp).ip, this.deps.settings.general().server_name);
  }

  private async serveHost(request: BootRequest, loader: LoaderKind): Promise<string> {
    const mac = request.mac === null ? null : normalizeMac(request.mac);
    if (mac === null) {
      this.served.inc({ script: 'host', outcome: 'invalid' });
      this.log.warn(`boot ${loader === 'grub' ? 'configuration' : 'script'} request from ${request.ip} without a valid MAC (${request.mac ?? 'none'})`);
      return loader === 'ipxe' ? missingMacScript() : renderGrubConfig({ kind: 'message', message: 'the request names no valid MAC address', retry: false }, this.grubTarget(request, ''), 'no MAC');
    }
    const access = this.deps.access();
    if (access && !(await access.isAllowed(mac))) {
      this.served.inc({ script: 'host', outcome: 'denied' });
      this.deps.events.emit({
        kind: 'boot.denied',
        level: 'warn',
        message: `boot ${loader === 'grub' ? 'configuration' : 'script'} refused to ${mac} (${request.ip}): denied by the access lists`,
        mac,
        ip: request.ip,
        detail: { arch: request.arch, platform: request.platform, loader },
      });
      return loader === 'ipxe' ? deniedScript(mac) : renderGrubConfig(deniedProgram(mac), this.grubTarget(request, mac), 'access denied');
    }
    const host = await this.deps.hosts.recordBoot(
      mac,
      { ip: request.ip, arch: request.arch, platform: request.platform },
      { discover: this.deps.settings.netboot().record_unknown_hosts },
    );
    const client: BootClientInfo = { ip: request.ip, mac, arch: request.arch, platform: request.platform, uuid: request.uuid, serial: request.serial };
    const overridden = (await this.override(host, client)) ?? (await this.menuChoice(request.choice, host, client));
    if (overridden) return this.serveOverride(overridden, request, host, mac, loader);
    const decision = this.decide(host, request.profileId);
    const rendered = loader === 'ipxe' ? await this.render(decision, host, client) : await this.renderGrub(decision, host, client, this.grubTarget(request, mac));
    const profileName = decision.profile?.name ?? null;
    return this.recordHostScript(request, host, mac, rendered, {
      failedMessage: `the ${loader === 'grub' ? 'GRUB configuration' : 'script'} of profile "${profileName ?? decision.action}" failed to render for ${machineLabel(host, mac)}: ${rendered.error ?? ''}; the machine shows the error and retries`,
      servedMessage: `served ${describe(decision)} to ${machineLabel(host, mac)}${loader === 'grub' ? ' through GRUB' : ''} (${decision.reason})`,
      detail: { profile: profileName, profile_id: decision.profile?.id ?? null, action: decision.action, reason: decision.reason, loader },
    });
  }

  /** Where a GRUB configuration for this request points: our TFTP address on its subnet, its CPU and MAC. */
  private grubTarget(request: Pick<BootRequest, 'ip' | 'arch'>, mac: string, endpoint?: ServerEndpoint): GrubTarget {
    const server = endpoint ?? this.endpoint(request.ip);
    return { serverIp: server.ip, bootUrl: server.boot_url, cpu: request.arch ?? 'x86_64', mac };
  }

  /** Serves an override's script: the same events and counters as a decided script, then its `served` step. */
  private async serveOverride(result: BootOverrideResult, request: BootRequest, host: Host | null, mac: string, loader: LoaderKind): Promise<string> {
    const rendered = loader === 'ipxe' ? result : { script: renderGrubConfig(overrideProgram(result), this.grubTarget(request, mac), result.reason_text), error: result.error };
    const script = this.recordHostScript(request, host, mac, rendered, {
      failedMessage: `the boot ${loader === 'grub' ? 'configuration' : 'script'} for ${machineLabel(host, mac)} failed to build (${result.reason_text}): ${result.error ?? ''}; the machine shows the error`,
      servedMessage: `served ${result.action === 'install' ? 'an installer' : 'local disk boot'} to ${machineLabel(host, mac)}${loader === 'grub' ? ' through GRUB' : ''} (${result.reason}: ${result.reason_text})`,
      detail: { profile: null, profile_id: null, action: result.action, reason: result.reason, loader, ...result.detail },
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

  /**
   * The decision for a host without rendering or recording anything, from
   * memory (host reads call it for every host): the access lists, then
   * host, group and netboot default. Install tasks come on top (the netboot area).
   */
  effectiveDecision(host: Host): BootDecision {
    const access = this.deps.access();
    const allowed = access === undefined ? true : access.isAllowed(host.mac);
    if (allowed === false) return { action: 'denied', profile: null, reason: 'access_denied', reason_text: `${host.mac} is denied by the access lists` };
    return decideBoot(host, this.deps.profiles, this.deps.settings.netboot());
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
    const loader = previewLoader(host, {
      loaders: this.deps.settings.netboot().boot_loaders,
      reservationBootFile: this.deps.reservationBootFile?.(host.mac) ?? null,
      archmapFile: (code) => this.deps.archmapFile?.(code) ?? null,
    });
    // BIOS machines only ever run iPXE; every other machine may be given GRUB (its own choice, or a change of it).
    const grubArchitecture = loaderArchitectureOfMachine(host.arch, host.platform) ?? (loader.architecture === 'bios' ? null : 'uefi_x64');
    const grubTarget = grubArchitecture === null ? null : this.grubTarget({ ip: server.ip, arch: GRUB_CHAINS[grubArchitecture].cpu }, host.mac, server);
    const grub =
      grubTarget === null
        ? null
        : denied
          ? { script: renderGrubConfig(deniedProgram(host.mac), grubTarget, decision.reason_text), error: null }
          : overridden
            ? { script: renderGrubConfig(overrideProgram(overridden), grubTarget, overridden.reason_text), error: overridden.error }
            : await this.renderGrub(decision, host, { ...client, arch: grubTarget.cpu, platform: 'efi' }, grubTarget, server);
    return {
      host_id: host.id,
      mac: host.mac,
      action: decision.action,
      reason: decision.reason,
      reason_text: decision.reason_text,
      profile: decision.profile
        ? { id: decision.profile.id, name: decision.profile.name, boot_type: decision.profile.boot_type, script_version: decision.profile.script_version }
        : null,
      loader,
      script: rendered.script,
      grub_config: grub?.script ?? null,
      grub_config_path: grubTarget === null ? null : grubHostPath(grubTarget.cpu, host.mac),
      render_error: rendered.error ?? grub?.error ?? null,
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

  /** GRUB's rendering of a decision: the same profile, menu or local disk as a boot program (boot-program.ts). */
  private async renderGrub(decision: BootDecision, host: Host | null, client: BootClientInfo, target: GrubTarget, endpoint?: ServerEndpoint): Promise<Rendered> {
    let program: BootProgram;
    if (decision.action === 'local') program = { kind: 'local', message: decision.reason_text };
    else if (decision.action === 'denied') program = deniedProgram(client.mac);
    else if (decision.profile === null) program = await this.globalMenu(client);
    else {
      const server = endpoint ?? this.endpoint(client.ip);
      const profile = decision.profile;
      try {
        program = await profileProgram(profile, this.deps.templates, bootTemplateData({ host, client, server, serverName: this.deps.settings.general().server_name, profile }));
      } catch (err) {
        if (!isRenderFailure(err)) throw err;
        const message = `the boot configuration of profile ${profile.name} (id ${profile.id}) could not be built: ${err.message}. Fix it in Bootwright.`;
        return { script: renderGrubConfig({ kind: 'message', message, retry: true }, target, decision.reason_text), error: err.message };
      }
    }
    return { script: renderGrubConfig(program, target, decision.reason_text), error: null };
  }

  /** The netboot default menu: every profile by name, the menu sources' sections for this machine, local disk last and default. */
  private async globalMenu(client: BootClientInfo): Promise<MenuProgram> {
    const profiles = [...this.deps.profiles.all()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    const sections: MenuChoiceSection[] = [];
    for (const source of this.menuSources) {
      try {
        sections.push(...(await source.sections(client)));
      } catch (err) {
        // One source's failure costs its choices, not the menu.
        this.log.warn(`a boot menu source failed for ${client.mac}: ${errorMessage(err)}`);
      }
    }
    return {
      kind: 'menu',
      title: `Bootwright boot menu (${this.deps.settings.general().server_name})`,
      timeout_seconds: this.deps.settings.netboot().menu_timeout_seconds,
      default_profile_id: null,
      profiles: profiles.map((profile) => ({ profile_id: profile.id, label: profile.name })),
      sections,
    };
  }

  private async globalMenuTemplate(client: BootClientInfo): Promise<string> {
    const menu = await this.globalMenu(client);
    return menuScript(
      { title: menu.title, entries: [...menu.profiles], default_entry: null, timeout_seconds: menu.timeout_seconds },
      `${IPXE_SHEBANG}\n# The netboot default menu for machines without a profile (settings netboot.default_action = menu).`,
      menu.sections,
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

/** An override's boot for GRUB: its program, else what only iPXE runs (an override written for iPXE only). */
function overrideProgram(result: BootOverrideResult): BootProgram {
  if (result.program) return result.program;
  if (result.error !== null) return { kind: 'message', message: result.error, retry: true };
  return { kind: 'ipxe_only', label: result.reason_text, reason: 'it was built as an iPXE script only' };
}

function deniedProgram(mac: string): BootProgram {
  return { kind: 'message', message: `access denied, this machine (${mac}) may not boot from the network.`, retry: false };
}

/** A machine in an event message: its host name with the MAC, else the MAC. */
function machineLabel(host: Host | null, mac: string): string {
  return host?.hostname ? `${host.hostname} (${mac})` : mac;
}

function describe(decision: BootDecision): string {
  if (decision.profile) return `profile "${decision.profile.name}"`;
  return decision.action === 'menu' ? 'the boot menu' : 'local disk boot';
}
