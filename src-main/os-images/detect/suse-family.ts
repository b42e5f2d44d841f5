import { debianArch, entryFor, joinArgs, recognised, withoutArgs, type DetectContext, type Recognised } from './detect-kit.js';

/*
 * openSUSE (Leap, Tumbleweed) and SUSE Linux Enterprise install media.
 * `media.1/products` lists the products on the medium, one per line as
 * "<path> <product name> <version>-<release>" (e.g. "/ openSUSE-Leap 15.6-0");
 * older media also carry a SUSE-tags `content` file (LABEL, VERSION,
 * BASEARCHS). The kernel and initrd are boot/<arch>/loader/linux and
 * initrd; linuxrc installs over the network with `install=<URL>`.
 */

export interface SuseProduct {
  name: string;
  version: string;
}

export function parseProducts(text: string): SuseProduct | null {
  for (const line of text.split(/\r?\n/).slice(0, 64)) {
    const match = /^\S+\s+(\S+(?:\s+\S+)*?)\s+(\d[\w.]*)(?:-\S+)?\s*$/.exec(line.trim());
    if (match) return { name: match[1] ?? '', version: match[2] ?? '' };
  }
  return null;
}

export function parseContent(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const line of text.split(/\r?\n/).slice(0, 256)) {
    const match = /^([A-Z_]+)\s+(.*)$/.exec(line.trim());
    if (match) keys.set(match[1] ?? '', (match[2] ?? '').trim().slice(0, 256));
  }
  return keys;
}

/** A product's display name and the catalog's id for it. */
function describe(product: string, version: string): { distro: string; catalog: string | null } {
  // Tumbleweed's "version" is a snapshot date (20240610).
  if (/^\d{8}$/.test(version) || /tumbleweed/i.test(product)) return { distro: 'openSUSE Tumbleweed', catalog: 'opensuse-tumbleweed' };
  if (/leap/i.test(product) || /^openSUSE$/i.test(product)) return { distro: 'openSUSE Leap', catalog: 'opensuse-leap' };
  if (/^(SLES|SLE)/i.test(product)) return { distro: 'SUSE Linux Enterprise Server', catalog: null };
  return { distro: product.replace(/-/g, ' '), catalog: null };
}

const SUSE_ARCHES = ['x86_64', 'aarch64', 'ppc64le', 's390x', 'i386', 'i586'];

export async function recogniseSuse(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const productsFile = await lookup.file('media.1/products');
  const contentFile = await lookup.file('content');
  let loaderArch = '';
  let kernel: string | null = null;
  for (const candidate of SUSE_ARCHES) {
    kernel = await lookup.file(`boot/${candidate}/loader/linux`);
    if (kernel) {
      loaderArch = candidate;
      break;
    }
  }
  if (!kernel || (!productsFile && !contentFile && !(await lookup.directory('media.1')))) return null;
  const initrd = await lookup.file(`boot/${loaderArch}/loader/initrd`);
  const products = productsFile ? parseProducts((await lookup.text(productsFile, 16 * 1024)) ?? '') : null;
  const content = contentFile ? parseContent((await lookup.text(contentFile, 64 * 1024)) ?? '') : new Map<string, string>();
  const productName = products?.name ?? content.get('LABEL') ?? content.get('PRODUCT') ?? 'openSUSE';
  const version = content.get('VERSION') ?? products?.version ?? '';
  const { distro, catalog } = describe(productName, version);
  const entry = entryFor(context, kernel);
  // The DVD holds a repository; the NET medium only the installation system.
  const hasRepository = (await lookup.directory(loaderArch)) !== null || (await lookup.directory('noarch')) !== null || (await lookup.directory('repodata')) !== null;
  const notes = ['linuxrc loads the installation system (boot/<arch>/root and friends) over HTTP into RAM: plan on 2 GiB of memory or more.', 'For an unattended install add autoyast=<profile URL>.'];
  if (!hasRepository) notes.push('This medium carries no package repository (a NET image): packages come from the openSUSE/SUSE online repositories.');
  return recognised({
    family: 'suse',
    distro,
    version,
    arch: debianArch(loaderArch) || context.efiArch,
    boot_method: 'linux',
    kernel,
    initrds: initrd ? [initrd] : [],
    netboot_cmdline: joinArgs('install={{ image_url }}', withoutArgs(entry?.args ?? '', /^(install=.*|root=.*|showopts)$/i)),
    evidence: [productsFile, contentFile, kernel].filter((path): path is string => typeof path === 'string'),
    notes,
    catalog: catalog && version !== '' ? { distro: catalog, version } : null,
  });
}
