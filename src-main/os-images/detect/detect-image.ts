import type { DetectInput, ImageDetector } from '../image-ports.js';
import type { Detection } from '../os-images-contract.js';
import { chooseEntry, readBootMenus } from './boot-menu.js';
import { recogniseCasper, recogniseDebianInstaller, recogniseDebianLive } from './debian-family.js';
import { catalogArch, efiLoaderArch, type DetectContext, type Recognised, type Recogniser } from './detect-kit.js';
import { recogniseLiveOs, recogniseTreeinfo } from './redhat-family.js';
import { recogniseLiveTool, recogniseMemtest, recogniseSystemRescue } from './rescue.js';
import { recogniseAlpine, recogniseArch } from './small-distros.js';
import { recogniseSuse } from './suse-family.js';
import { foldName, TreeLookup } from './tree-lookup.js';
import { recogniseWindows } from './windows.js';

/*
 * Detection: what an image is and how it boots over the network, from its
 * own files (docs/os-detection.md). It reads directory listings and a few
 * small text files (bounded in count and size by TreeLookup and the menu
 * reader), never a kernel or a squashfs, so a 4 GB image is detected as
 * fast as a 40 MB one.
 *
 * The recognisers run in order, most specific first: a rescue tool built
 * with live-build has live/ like Debian live, SystemRescue is archiso like
 * Arch, a Debian live image also carries the installer. The first that
 * recognises the medium decides; the boot menus fill in the command line.
 */

const RECOGNISERS: Recogniser[] = [
  recogniseWindows,
  recogniseSystemRescue,
  recogniseLiveTool,
  recogniseCasper,
  recogniseTreeinfo,
  recogniseLiveOs,
  recogniseSuse,
  recogniseArch,
  recogniseAlpine,
  recogniseDebianLive,
  recogniseDebianInstaller,
  recogniseMemtest,
];

/** UEFI loaders of the removable-media path (EFI/BOOT/*.EFI), as tree paths. */
async function efiLoaders(lookup: TreeLookup): Promise<string[]> {
  const dir = await lookup.directory('EFI/BOOT');
  if (!dir) return [];
  return (await lookup.list(dir)).filter((entry) => entry.type === 'file' && /\.efi$/i.test(foldName(entry.name))).map((entry) => entry.path);
}

/** The machine architecture the loaders are for: x64 first when a medium carries several. */
function archOfLoaders(loaders: string[]): string {
  const arches = loaders.map((path) => efiLoaderArch(foldName(path.split('/').pop() ?? ''))).filter((arch) => arch !== '');
  return arches.includes('amd64') ? 'amd64' : (arches[0] ?? '');
}

/** An image nothing recognised: sanboot when it boots from BIOS, its menu's kernel otherwise, else nothing. */
function unrecognised(context: DetectContext): Recognised {
  const bios = context.info.el_torito.some((entry) => entry.platform === 'bios' && entry.bootable);
  const uefi = context.info.el_torito.some((entry) => entry.platform === 'uefi' && entry.bootable);
  const entry = chooseEntry(context.menus.entries, null);
  const distro = context.info.volume_id || context.fileName;
  const base = { family: 'other' as const, distro, version: '', arch: context.efiArch, kernel: null, initrds: [], netboot_cmdline: '', boot_wim: null, catalog: null };
  const menuNote = entry?.kernel ? [`Its menu (${entry.file}) boots ${entry.kernel}${entry.args ? ` with "${entry.args}"` : ''}; how that kernel finds its root over the network is not known.`] : [];
  if (bios) {
    return {
      ...base,
      boot_method: 'sanboot',
      evidence: [],
      notes: ['Not recognised: iPXE sanboot hooks the whole ISO as a disk (BIOS; small images). An installer or live system whose kernel looks for its medium will not find it once Linux runs.', ...menuNote],
    };
  }
  if (entry?.kernel) {
    return { ...base, boot_method: 'linux', kernel: entry.kernel, initrds: entry.initrds, netboot_cmdline: entry.args, evidence: [entry.file], notes: ['Not recognised: the kernel and arguments are its own menu\'s.', ...menuNote] };
  }
  if (uefi) {
    return { ...base, boot_method: 'sanboot', evidence: [], notes: ['Not recognised and UEFI-only: iPXE sanboot hooks the ISO as a disk and the firmware starts its EFI boot image; not all firmware boots an El Torito image from a SAN disk.'] };
  }
  return { ...base, boot_method: 'none', evidence: [], notes: ['Nothing bootable found: no El Torito boot entry, no boot menu with a kernel.'] };
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

export const detectImage: ImageDetector = async (input: DetectInput): Promise<Detection> => {
  const lookup = new TreeLookup(input.tree);
  const loaders = await efiLoaders(lookup);
  const menus = await readBootMenus(lookup);
  const context: DetectContext = {
    lookup,
    info: input.info,
    fileName: input.fileName,
    menus,
    efiArch: archOfLoaders(loaders),
    imageBytes: input.info.volume_bytes,
  };
  let result: Recognised | null = null;
  for (const recognise of RECOGNISERS) {
    result = await recognise(context);
    if (result) break;
  }
  const found = result ?? unrecognised(context);
  const entry = found.boot_method === 'linux' ? chooseEntry(menus.entries, found.kernel) : null;
  const isoCmdline = found.iso_cmdline ?? entry?.args ?? '';
  const evidence = unique([...found.evidence, ...(entry && isoCmdline !== '' ? [entry.file] : [])]);
  const arch = found.arch || context.efiArch;
  const catalogEntry = found.catalog && arch !== '' ? input.catalog({ family: found.family, distro: found.catalog.distro, version: found.catalog.version, arch: catalogArch(arch) }) : null;
  return {
    family: found.family,
    distro: found.distro,
    version: found.version,
    arch,
    boot_method: found.boot_method,
    kernel: found.boot_method === 'linux' ? found.kernel : null,
    initrds: found.boot_method === 'linux' ? found.initrds : [],
    iso_cmdline: isoCmdline,
    netboot_cmdline: found.netboot_cmdline,
    boot_wim: found.boot_wim,
    efi_loaders: loaders,
    catalog_entry: catalogEntry ? { distro: catalogEntry.distro, version: catalogEntry.version, arch: catalogEntry.arch } : null,
    evidence,
    notes: found.notes,
  };
};
