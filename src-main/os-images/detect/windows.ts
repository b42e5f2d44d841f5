import { debianArch, recognised, type DetectContext, type Recognised } from './detect-kit.js';
import { parseIni } from './redhat-family.js';

/*
 * Windows setup and Windows PE media. sources/boot.wim is the WinPE image
 * wimboot loads (with bootmgr/bootmgr.efi, boot/bcd and boot/boot.sdi);
 * sources/install.wim|esd|swm holds the editions setup installs.
 * sources/idwbinfo.txt records the build's branch and architecture.
 *
 * Microsoft's current ISOs are UDF-bridge media whose ISO 9660 side holds
 * only a README saying the content is in UDF: a reader that reads the
 * ISO 9660 side sees nothing else, and detection says so.
 */

/** Build branches (idwbinfo.txt BuildBranch) to the release they shipped as. */
const BRANCHES: [RegExp, string, string][] = [
  [/^ge_release/i, 'Windows 11', '24H2'],
  [/^ni_release/i, 'Windows 11', '22H2'],
  [/^co_release/i, 'Windows 11', '21H2'],
  [/^fe_release/i, 'Windows Server 2022', '21H2'],
  [/^vb_release/i, 'Windows 10', '2004+'],
  [/^19h1_release/i, 'Windows 10', '1903'],
  [/^rs5_release/i, 'Windows 10', '1809'],
];

/** The product from the file name or volume label ("Win11_23H2_English_x64.iso", "SERVER_EVAL_X64FRE"). */
function productHint(text: string): { distro: string; version: string } | null {
  const server = /server[ _-]?(20\d\d)/i.exec(text);
  if (server) return { distro: `Windows Server ${server[1] ?? ''}`, version: '' };
  const client = /win(?:dows)?[ _-]?(10|11)(?:[ _-]?(\d\d[Hh]\d))?/i.exec(text);
  if (client) return { distro: `Windows ${client[1] ?? ''}`, version: (client[2] ?? '').toUpperCase() };
  return null;
}

export async function recogniseWindows(context: DetectContext): Promise<Recognised | null> {
  const { lookup } = context;
  const bootWim = await lookup.file('sources/boot.wim');
  if (!bootWim) return recogniseUdfOnly(context);
  const install = await lookup.firstFile(['sources/install.wim', 'sources/install.esd', 'sources/install.swm']);
  const idwb = await lookup.file('sources/idwbinfo.txt');
  const build = idwb ? parseIni((await lookup.text(idwb, 8 * 1024)) ?? '').get('buildinfo') : undefined;
  const branch = build?.get('buildbranch') ?? '';
  const fromBranch = BRANCHES.find(([pattern]) => pattern.test(branch));
  const hint = productHint(context.fileName) ?? productHint(context.info.volume_id);
  const volumeArch = /_(X64|A64|X86)FRE/i.exec(context.info.volume_id)?.[1] ?? '';
  const arch = debianArch(build?.get('buildarch') ?? '') || context.efiArch || debianArch(volumeArch);
  const distro = install ? (hint?.distro ?? fromBranch?.[1] ?? 'Windows') : 'Windows PE';
  const version = hint?.version || fromBranch?.[2] || '';
  const evidence = [bootWim];
  for (const path of ['bootmgr', 'bootmgr.efi', 'boot/bcd', 'boot/boot.sdi', 'efi/microsoft/boot/bcd']) {
    const found = await lookup.file(path);
    if (found) evidence.push(found);
  }
  if (idwb) evidence.push(idwb);
  if (install) evidence.push(install);
  const notes = [
    'wimboot boots sources/boot.wim with bootmgr, boot/bcd and boot/boot.sdi from the mounted image (BIOS and UEFI).',
  ];
  if (install) {
    notes.push(`Setup inside WinPE cannot read ${install} over HTTP: share the mounted or extracted image over SMB and start setup from it (e.g. \`net use\` in startnet.cmd), or install with an answer file that names that share.`);
  }
  if (!(await lookup.file('boot/boot.sdi'))) notes.push('boot/boot.sdi is missing: wimboot needs it.');
  return recognised({
    family: 'windows',
    distro,
    version,
    arch,
    boot_method: 'windows',
    boot_wim: bootWim,
    evidence,
    notes,
    catalog: { distro: 'windows-pe', version: /11/.test(distro) ? '11' : '10' },
  });
}

/** A UDF-bridge ISO whose ISO 9660 side holds only Microsoft's README. */
async function recogniseUdfOnly(context: DetectContext): Promise<Recognised | null> {
  const root = await context.lookup.list('');
  if (root.length > 4) return null;
  const readme = await context.lookup.file('README.TXT');
  if (!readme) return null;
  const text = (await context.lookup.text(readme, 8 * 1024)) ?? '';
  if (!/UDF/.test(text)) return null;
  const hint = productHint(context.fileName) ?? productHint(context.info.volume_id);
  const bios = context.info.el_torito.some((entry) => entry.platform === 'bios' && entry.bootable);
  return recognised({
    family: 'windows',
    distro: hint?.distro ?? 'Windows',
    version: hint?.version ?? '',
    arch: context.efiArch || debianArch(/_(X64|A64|X86)FRE/i.exec(context.info.volume_id)?.[1] ?? ''),
    boot_method: bios ? 'sanboot' : 'none',
    evidence: [readme],
    notes: [
      'This ISO keeps its files in UDF only; its ISO 9660 side holds a README. The image reader serves the ISO 9660 side, so boot.wim cannot be served from the mount: extract the ISO with a UDF-capable tool (7z, mount -t udf) into a folder and boot that with wimboot.',
      ...(bios ? ['sanboot of the whole ISO starts Windows Setup on BIOS machines, but Setup cannot see the SAN disk once Windows PE runs: expect it to stop when it looks for the installation media.'] : []),
    ],
  });
}
