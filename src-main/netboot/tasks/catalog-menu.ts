import type { BootMenuItem, BootMenuSection, BootMenuSource } from '../../boot-scripts/boot-menu.js';
import type { BootOverrideInput, BootOverrideResult } from '../../boot-scripts/boot-override.js';
import { renderFailedScript } from '../../boot-scripts/fallback-script.js';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { ipxeSafeText } from '../../profiles/ipxe-syntax.js';
import type { BootClientInfo } from '../../profiles/template-context.js';
import { TemplateError } from '../../templates/template-engine.js';
import type { TemplateRenderer } from '../../templates/template-renderer.js';
import type { CatalogEntryView, CatalogGroup, EntryFilesCheck, NetbootArch } from '../netboot-contract.js';
import type { CatalogReader, ResolvedEntry } from '../netboot-ports.js';
import { entryCmdlineData } from './cmdline-data.js';
import { installerProgram, installerScript } from './installer-script.js';
import { firmwareOf } from './task-boot.js';

export interface CatalogMenuDeps {
  catalog: CatalogReader & { entries(): readonly CatalogEntryView[]; groups(): readonly CatalogGroup[] };
  /** Where the entry's files are (boot root, cache, mirror); the menu offers what can boot now. */
  check(resolved: ResolvedEntry): Promise<Pick<EntryFilesCheck, 'availability' | 'problem'>>;
  templates: Pick<TemplateRenderer, 'render'>;
  log: Logger;
}

/** iPXE `${buildarch}` → the catalog's architecture: a BIOS iPXE is an i386 build even on 64-bit machines, which it boots 64-bit kernels on. */
function catalogArch(buildarch: string | null): NetbootArch | null {
  if (buildarch === 'x86_64' || buildarch === 'i386') return 'x86_64';
  if (buildarch === 'arm64') return 'arm64';
  return null;
}

/** `debian:12:x86_64`: a menu key (boot-menu.ts MENU_KEY_PATTERN) naming one catalog version and architecture. */
function keyOf(distro: string, version: string, arch: NetbootArch): string {
  return `${distro}:${version}:${arch}`;
}

/**
 * The netboot catalog in the netboot default menu (netboot.xyz-style): the
 * catalog's groups as headings, under each the versions of its entries this
 * machine can boot (its architecture and firmware, files here or, online, on
 * the mirror — downloaded as it asks). A choice boots the installer
 * interactively: no answer file, which belongs to an install task and its
 * token. It is honoured only while the machine's own decision is that menu
 * (the boot scripts check it) and only for what this menu offered it.
 */
export function catalogMenu(deps: CatalogMenuDeps): BootMenuSource {
  const offered = async (client: BootClientInfo): Promise<{ title: string; items: (BootMenuItem & { resolved: ResolvedEntry })[] }[]> => {
    const arch = catalogArch(client.arch);
    if (arch === null) return [];
    const firmware = firmwareOf(client.platform);
    const entries = deps.catalog.entries();
    const sections = [];
    for (const group of [...deps.catalog.groups()].sort((a, b) => a.order - b.order)) {
      const items: (BootMenuItem & { resolved: ResolvedEntry })[] = [];
      for (const entry of entries.filter((candidate) => candidate.group === group.id)) {
        for (const version of entry.versions) {
          if (!version.architectures.some((candidate) => candidate.arch === arch)) continue;
          const resolved = deps.catalog.resolve(entry.distro, version.version, arch);
          if (firmware !== null && !deps.catalog.supports(resolved, firmware)) continue;
          const check = await deps.check(resolved);
          if (check.problem !== null) continue;
          const download = check.availability === 'remote' ? ' (download)' : '';
          items.push({ key: keyOf(entry.distro, version.version, arch), label: ipxeSafeText(`${entry.name} ${version.name}${download}`, 60), resolved });
        }
      }
      sections.push({ title: ipxeSafeText(group.name, 60), items });
    }
    return sections.filter((section) => section.items.length > 0);
  };

  return {
    async sections(client): Promise<readonly BootMenuSection[]> {
      return (await offered(client)).map((section) => ({ title: section.title, items: section.items.map(({ key, label }) => ({ key, label })) }));
    },

    async choose(key: string, input: BootOverrideInput): Promise<BootOverrideResult | null> {
      const item = (await offered(input.client)).flatMap((section) => section.items).find((candidate) => candidate.key === key);
      if (!item) return null;
      const { resolved } = item;
      const label = `${resolved.entry.name} ${resolved.version.version} (${resolved.arch.arch})`;
      const base = { action: 'install' as const, reason: 'menu_choice' as const, detail: { distro: resolved.entry.distro, version: resolved.version.version, arch: resolved.arch.arch } };
      try {
        const host = input.host;
        const data = entryCmdlineData(resolved, {
          host: { id: host?.id ?? null, mac: input.mac, hostname: host?.hostname ?? null, ip: host?.ip ?? input.client.ip, group: host?.group ?? null, arch: input.client.arch, platform: input.client.platform },
          server: { ...input.server },
          variables: {},
          task: null,
          urls: null,
        });
        const cmdline = (await deps.templates.render(resolved.cmdline, { ...data, answer_argument: '' })).replace(/\s+/g, ' ').trim();
        const installer = { taskId: null, label, loader: resolved.entry.loader, files: resolved.files, bootUrl: input.server.boot_url, cmdline };
        const script = installerScript(installer);
        return { ...base, reason_text: `chosen from the boot menu: the ${label} installer, interactive (no install task)`, script, program: installerProgram(installer), error: null };
      } catch (err) {
        if (!(err instanceof TemplateError || err instanceof AppError)) throw err;
        const message = errorMessage(err);
        deps.log.warn(`boot menu choice ${key} for ${input.mac}: ${message}`);
        return { ...base, reason_text: `chosen from the boot menu: ${label}`, script: renderFailedScript(label, message), error: message };
      }
    },
  };
}
