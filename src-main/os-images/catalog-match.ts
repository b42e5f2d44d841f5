import type { CatalogLookup, CatalogMatch } from './image-ports.js';

/*
 * Which netboot catalog entry a detected image is (docs/os-images.md,
 * "Catalog link"): detection says "Debian GNU/Linux 12.5.0 amd64", the
 * catalog knows `debian` version "12" arch x86_64. The link lets an install
 * task take its kernel and initrd from the image instead of a mirror.
 */

/** The parts of a catalog entry the match reads (NetbootCatalog.entries() rows fit). */
export interface CatalogEntryLike {
  distro: string;
  name: string;
  family: string;
  versions: readonly { version: string; architectures: readonly { arch: string }[] }[];
}

/** Detection's families (os-images) → the catalog's families (netboot). */
const FAMILY_TO_CATALOG: Readonly<Record<string, readonly string[]>> = {
  debian: ['debian'],
  ubuntu: ['ubuntu'],
  rhel: ['redhat'],
  fedora: ['redhat'],
  suse: ['suse'],
  arch: ['arch'],
  alpine: ['alpine'],
  windows: ['windows'],
  rescue: ['utility'],
  other: ['utility'],
};

/** Detection's Debian-style architectures → the catalog's (iPXE ${buildarch}). */
const ARCH_TO_CATALOG: Readonly<Record<string, string>> = {
  amd64: 'x86_64',
  x86_64: 'x86_64',
  arm64: 'arm64',
  aarch64: 'arm64',
};

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== '');
}

/** Whether the entry's id ("rocky", "opensuse-leap") or its name's first word names the detected distro. */
function namesDistro(entry: CatalogEntryLike, distro: string): boolean {
  const detected = words(distro).join(' ');
  const id = words(entry.distro).join(' ');
  if (id !== '' && ` ${detected} `.includes(` ${id} `)) return true;
  const first = words(entry.name)[0];
  return first !== undefined && first.length > 2 && words(distro).includes(first);
}

/** The catalog's version label the detected version belongs to: "12" for 12.5.0, "24.04" for 24.04.1; the longest wins. */
export function matchVersion(labels: readonly string[], version: string): string | null {
  let best: string | null = null;
  for (const label of labels) {
    const fits = version === label || version.startsWith(`${label}.`);
    if (fits && (best === null || label.length > best.length)) best = label;
  }
  return best;
}

/** A CatalogLookup over the catalog's current entries (read at each call, so overlays count). */
export function catalogLookupFrom(entries: () => readonly CatalogEntryLike[]): CatalogLookup {
  return (query) => {
    const families = FAMILY_TO_CATALOG[query.family] ?? [];
    const arch = ARCH_TO_CATALOG[query.arch.toLowerCase()] ?? null;
    if (arch === null || query.version === '') return null;
    const candidates = entries().filter((entry) => families.includes(entry.family) && namesDistro(entry, query.distro));
    // An exact id match ("debian") before a longer one that merely contains it ("debian-rescue").
    candidates.sort((a, b) => a.distro.length - b.distro.length);
    for (const entry of candidates) {
      const label = matchVersion(
        entry.versions.map((item) => item.version),
        query.version,
      );
      if (label === null) continue;
      const version = entry.versions.find((item) => item.version === label);
      if (!version?.architectures.some((item) => item.arch === arch)) continue;
      const match: CatalogMatch = { distro: entry.distro, version: label, arch };
      return match;
    }
    return null;
  };
}
