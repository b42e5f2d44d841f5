import { notFound } from '../../src-main/core/errors.js';
import type { CatalogListing } from '../../src-main/netboot/files/index.js';
import type { CatalogEntryView, NetbootArch } from '../../src-main/netboot/netboot-contract.js';
import { netbootFilePath, type CatalogReader, type ResolvedEntry, type ResolvedFile } from '../../src-main/netboot/netboot-ports.js';

/**
 * A small stand-in for the catalog part's NetbootCatalog (tests of the files
 * part): resolves entries given as CatalogEntryView the way the ports
 * describe (default version, x86_64 first, placeholders expanded, served
 * paths), throwing NOT_FOUND for anything unknown.
 */
export function fakeCatalog(entries: CatalogEntryView[]): CatalogReader & CatalogListing {
  return {
    entries: () => entries,
    supports: (resolved, firmware) => resolved.arch.firmware.includes(firmware),
    resolve(distro: string, version?: string, arch?: NetbootArch): ResolvedEntry {
      const entry = entries.find((candidate) => candidate.distro === distro);
      if (!entry) throw notFound('netboot catalog entry', distro);
      const chosen = version ? entry.versions.find((v) => v.version === version) : (entry.versions.find((v) => v.default) ?? entry.versions[0]);
      if (!chosen) throw notFound(`version of ${distro}`, version ?? '(default)');
      const archEntry = arch
        ? chosen.architectures.find((a) => a.arch === arch)
        : (chosen.architectures.find((a) => a.arch === 'x86_64') ?? chosen.architectures[0]);
      if (!archEntry) throw notFound(`architecture of ${distro} ${chosen.version}`, arch ?? '(default)');
      const mirror = chosen.mirror !== undefined ? chosen.mirror : entry.mirror;
      const expand = (text: string) =>
        text
          .replace(/\{\{\s*version\s*\}\}/g, chosen.version)
          .replace(/\{\{\s*codename\s*\}\}/g, chosen.codename ?? '')
          .replace(/\{\{\s*arch_alias\s*\}\}/g, entry.arch_aliases?.[archEntry.arch] ?? archEntry.arch);
      const file = (role: ResolvedFile['role'], raw: string): ResolvedFile => {
        const relative = expand(raw);
        const name = relative.split('/').pop() ?? relative;
        return {
          role,
          path: relative,
          name,
          served_path: netbootFilePath(entry.distro, chosen.version, archEntry.arch, name),
          url: mirror ? `${mirror.replace(/\/+$/, '')}/${relative}` : null,
          sha256: archEntry.sha256?.[relative] ?? null,
        };
      };
      return {
        entry,
        version: chosen,
        arch: archEntry,
        mirror,
        files: [file('kernel', archEntry.kernel), ...archEntry.initrds.map((initrd) => file('initrd', initrd))],
        cmdline: entry.cmdline,
        answer: entry.answer,
      };
    },
  };
}

/** A catalog entry with defaults for what the files part does not read. */
export function entryView(fields: Pick<CatalogEntryView, 'distro' | 'mirror' | 'versions'> & Partial<CatalogEntryView>): CatalogEntryView {
  return {
    name: fields.distro,
    family: 'debian',
    group: 'linux',
    description: '',
    loader: 'linux',
    cmdline: '',
    answer: null,
    overlay: false,
    ...fields,
  };
}
