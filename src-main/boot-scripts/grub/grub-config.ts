import type { BootProgram, IpxeOnlyProgram, LinuxProgram, MenuProgram } from '../boot-program.js';
import { GRUB_HOST_PREFIX, grubChoicePath, grubHostPath } from './grub-paths.js';
import { grubFileFromUrl, grubKernelArguments, grubQuote, grubText, tftpDevicePath } from './grub-syntax.js';

/*
 * GRUB configurations Bootwright renders (docs/secure-boot-arm64.md): the
 * entry configuration every GRUB machine reads first, and each machine's own,
 * from the same boot decision as its iPXE script (boot-program.ts). Commands
 * used are in Debian's signed network GRUB without modules: configfile, echo,
 * sleep, for, if, menuentry, submenu, linux, initrd, chainloader, boot, exit.
 */

/** Attempts of the entry configuration before it gives up and hands the machine back to its firmware (as iPXE's entry script). */
export const GRUB_ENTRY_ATTEMPTS = 60;
export const GRUB_RETRY_SECONDS = 5;
/** Seconds a machine shows why it cannot boot before it looks again (a retry) or returns to its firmware. */
export const GRUB_MESSAGE_SECONDS = 10;

/** Where the rendered configuration is for: the server the machine reached and how it named itself. */
export interface GrubTarget {
  /** Our address on the machine's subnet (its TFTP server). */
  serverIp: string;
  /** `{{ server.boot_url }}` for the machine: URLs under it are files GRUB fetches over TFTP. */
  bootUrl: string;
  cpu: string;
  mac: string;
}

/**
 * The configuration at the GRUB chain's prefix: loads the machine's own,
 * retrying while the server has none for it (not reachable yet, a template
 * that fails), then hands the machine back to its firmware.
 */
export function entryGrubConfig(serverIp: string, serverName: string): string {
  const attempts = Array.from({ length: GRUB_ENTRY_ATTEMPTS }, (_unused, index) => String(index + 1)).join(' ');
  return lines(
    `# Bootwright (${serverName.replace(/[^A-Za-z0-9._-]/g, '')}): GRUB entry configuration, generated for machines reaching ${serverIp}.`,
    "# It loads this machine's own configuration, decided like an iPXE machine's boot script (host, group, netboot default, install task).",
    `set bw_server=${grubQuote(tftpDevicePath(serverIp, '').replace(/\/$/, ''))}`,
    `for bw_try in ${attempts}; do`,
    `  configfile "\${bw_server}/${GRUB_HOST_PREFIX}\${grub_cpu}/\${net_default_mac}.cfg"`,
    `  echo "Bootwright: no boot configuration for this machine yet (attempt \${bw_try} of ${GRUB_ENTRY_ATTEMPTS}); asking again in ${GRUB_RETRY_SECONDS} seconds..."`,
    `  sleep ${GRUB_RETRY_SECONDS}`,
    'done',
    "echo 'Bootwright: giving up, trying the next boot device.'",
    `sleep ${GRUB_RETRY_SECONDS}`,
    'exit',
  );
}

/** A machine's own configuration: `comment` heads it (why it boots this), then the program. */
export function renderGrubConfig(program: BootProgram, target: GrubTarget, comment: string): string {
  const head = `# Bootwright: ${comment.replace(/[\u0000-\u001f\u007f]+/g, ' ')}`;
  switch (program.kind) {
    case 'linux':
      return lines(head, ...linuxCommands(program, target));
    case 'menu':
      return lines(head, ...menuCommands(program, target));
    case 'local':
      return lines(head, `echo ${grubText(`Bootwright: ${program.message}`)}`, "echo 'Booting from the local disk...'", 'exit');
    case 'message':
      return lines(head, ...messageCommands(program.message, program.retry));
    case 'ipxe_only':
      return lines(head, ...ipxeOnlyCommands(program, target));
  }
}

function linuxCommands(program: LinuxProgram, target: GrubTarget): string[] {
  const files = [program.kernel, ...program.initrds].map((url) => ({ url, path: grubFileFromUrl(url, target.bootUrl, target.serverIp) }));
  const remote = files.find((file) => file.path === null);
  if (remote) {
    return messageCommands(
      `${program.label} loads ${remote.url}, which is not a file of this server: GRUB loads over TFTP only. Put the file in the boot root (or the netboot cache) and name it by path.`,
      true,
    );
  }
  const args = grubKernelArguments(program.cmdline);
  if ('problem' in args) return messageCommands(`${program.label}: ${args.problem}. Remove it, or boot this machine with iPXE.`, true);
  const [kernel, ...initrds] = files.map((file) => grubQuote(file.path!));
  const initrd = initrds.length > 0 ? `initrd ${initrds.join(' ')}` : null;
  return [
    `echo ${grubText(`Bootwright: loading ${program.label} over TFTP...`)}`,
    `if linux ${[kernel, ...args.words].join(' ')}; then`,
    ...(initrd === null ? ['  boot'] : [`  if ${initrd}; then`, '    boot', '  fi']),
    'fi',
    ...messageCommands(`the kernel or an initrd of ${program.label} could not be loaded`, true),
  ];
}

function menuCommands(program: MenuProgram, target: GrubTarget): string[] {
  const choice = (label: string, id: string, path: string) => [`menuentry ${grubText(label, 80)} --id ${id} {`, `  configfile ${grubQuote(tftpDevicePath(target.serverIp, path))}`, '}'];
  const defaultId = program.default_profile_id === null ? 'local' : `p${program.default_profile_id}`;
  const sections = program.sections.filter((section) => section.items.length > 0);
  let next = 0;
  return [
    `set timeout=${program.timeout_seconds > 0 ? program.timeout_seconds : -1}`,
    'set timeout_style=menu',
    `set default=${defaultId}`,
    `echo ${grubText(program.title)}`,
    ...program.profiles.flatMap((entry) => choice(entry.label, `p${entry.profile_id}`, grubChoicePath(target.cpu, target.mac, { profile_id: entry.profile_id }))),
    ...sections.flatMap((section) => [
      `submenu ${grubText(section.title, 80)} {`,
      ...section.items.flatMap((item) => choice(item.label, `c${(next += 1)}`, grubChoicePath(target.cpu, target.mac, { key: item.key })).map((line) => `  ${line}`)),
      '}',
    ]),
    "menuentry 'Boot from the local disk' --id local {",
    '  exit',
    '}',
  ];
}

/**
 * Something only iPXE runs: say what and what to change, then offer a retry
 * or the local disk (the default at the timeout). GRUB does not hand over to
 * iPXE: under Secure Boot shim refuses the unsigned image, and without it
 * Debian's iPXE finds no network device after Debian's GRUB 2.06 used the
 * card (seen in QEMU: "No more network devices") — the machine's loader must
 * be iPXE from the start (`boot_loader: ipxe`).
 */
function ipxeOnlyCommands(program: IpxeOnlyProgram, target: GrubTarget): string[] {
  return [
    `echo ${grubText(`Bootwright: ${program.label} needs iPXE: ${program.reason}.`, 400)}`,
    `echo ${grubText("This machine boots through GRUB (the signed chain), which cannot run it. Set the host's boot loader to iPXE (Secure Boot must then be off), or give it a linux profile.", 400)}`,
    `set timeout=${GRUB_MESSAGE_SECONDS * 3}`,
    'set default=local',
    "menuentry 'Try again' --id retry {",
    `  configfile ${grubQuote(tftpDevicePath(target.serverIp, grubHostPath(target.cpu, target.mac)))}`,
    '}',
    "menuentry 'Boot from the local disk' --id local {",
    '  exit',
    '}',
  ];
}

/** Say why; `retry`: return to the entry configuration, which asks again; else back to the firmware. */
function messageCommands(message: string, retry: boolean): string[] {
  return retry
    ? [`echo ${grubText(`Bootwright: ${message}`, 400)}`, `echo 'Retrying in ${GRUB_MESSAGE_SECONDS} seconds...'`, `sleep ${GRUB_MESSAGE_SECONDS}`]
    : [`echo ${grubText(`Bootwright: ${message}`, 400)}`, `sleep ${GRUB_MESSAGE_SECONDS}`, 'exit'];
}

function lines(...parts: string[]): string {
  return `${parts.join('\n')}\n`;
}
