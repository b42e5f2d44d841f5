import { IPXE_SHEBANG, ipxeSafeText } from '../../profiles/ipxe-syntax.js';
import type { Loader } from '../netboot-contract.js';
import type { ResolvedFile } from '../netboot-ports.js';
import { ipxeKernelArguments } from './ipxe-cmdline.js';
import type { BootProgram } from '../../boot-scripts/boot-program.js';

/** Seconds the machine shows a failed download before the entry script retries. */
export const INSTALLER_RETRY_SECONDS = 10;

export interface InstallerScriptInput {
  /** The install task; null for an installer chosen from the boot menu (interactive, no task). */
  taskId: number | null;
  /** e.g. `Debian 12 (x86_64)`. */
  label: string;
  loader: Loader;
  files: readonly Pick<ResolvedFile, 'role' | 'name' | 'served_path'>[];
  /** `{{ server.boot_url }}` for the machine: where its files are served over HTTP. */
  bootUrl: string;
  /** The rendered kernel command line (not yet escaped for iPXE). */
  cmdline: string;
}

/** A name iPXE and the kernel's `initrd=` both take as it is; anything else gets a generated one. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** The URL of a served file: each path segment percent-encoded (no `${`, `#` or space can reach the iPXE line). */
export function servedFileUrl(bootUrl: string, servedPath: string): string {
  return `${bootUrl.replace(/\/+$/, '')}/${servedPath.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The iPXE script that starts a task's installer (https://ipxe.org/cmd):
 *
 * - `linux`: `kernel` with `initrd=<name>` arguments, one `initrd --name` per
 *   initrd (UEFI kernels load exactly the initrds named on their command
 *   line; BIOS ignores the names), as the profiles' linux scripts do;
 * - `wimboot`: wimboot as the kernel and every other file as a named initrd
 *   (`bootmgr`, `BCD`, `boot.sdi`, `boot.wim`: wimboot finds them by name);
 * - `multiboot` and `efi`: the single image, with the command line.
 *
 * A failed download shows why and exits 1, so the entry script fetches the
 * machine's script again after a pause (the files may still be downloading
 * into the cache). Throws AppError VALIDATION_FAILED when the command line
 * cannot be written in iPXE (ipxe-cmdline.ts).
 */
export function installerScript(input: InstallerScriptInput): string {
  const kernel = input.files.find((file) => file.role === 'kernel');
  const initrds = input.files.filter((file) => file.role === 'initrd');
  const args = ipxeKernelArguments(input.cmdline);
  const header = [
    IPXE_SHEBANG,
    input.taskId === null
      ? `# Bootwright boot menu choice: ${ipxeSafeText(input.label, 80)} (${input.loader} loader), interactive. Generated from the netboot catalog.`
      : `# Bootwright install task ${input.taskId}: ${ipxeSafeText(input.label, 80)} (${input.loader} loader). Generated; edit the task, not this script.`,
    `echo Bootwright: ${input.taskId === null ? 'from the boot menu' : `install task ${input.taskId}`}, ${ipxeSafeText(input.label, 80)}`,
    ...args.settings,
  ];
  if (!kernel) return lines(...header, `echo The catalog entry names no kernel file.`, ...failed());
  const kernelUrl = servedFileUrl(input.bootUrl, kernel.served_path);
  const names = initrds.map((file, index) => (SAFE_NAME.test(file.name) ? file.name : `initrd${index}`));
  const body: string[] = [];
  switch (input.loader) {
    case 'linux': {
      const kernelArgs = [...names.map((name) => `initrd=${name}`), args.text].filter((part) => part !== '');
      body.push(`kernel ${kernelUrl}${kernelArgs.length > 0 ? ` ${kernelArgs.join(' ')}` : ''} || goto bw-failed`);
      initrds.forEach((file, index) => body.push(`initrd --name ${names[index]} ${servedFileUrl(input.bootUrl, file.served_path)} || goto bw-failed`));
      break;
    }
    case 'wimboot': {
      body.push(`kernel ${kernelUrl}${args.text !== '' ? ` ${args.text}` : ''} || goto bw-failed`);
      initrds.forEach((file, index) => body.push(`initrd --name ${names[index]} ${servedFileUrl(input.bootUrl, file.served_path)} || goto bw-failed`));
      break;
    }
    case 'multiboot':
    case 'efi':
      body.push(`kernel ${kernelUrl}${args.text !== '' ? ` ${args.text}` : ''} || goto bw-failed`);
      break;
  }
  return lines(...header, ...body, 'boot || goto bw-failed', ...failed());
}

/** Why an installer loader runs in iPXE only (GRUB machines are told). */
const IPXE_ONLY_LOADERS: Readonly<Record<Exclude<Loader, 'linux'>, string>> = {
  wimboot: 'Windows installers start through wimboot, which iPXE loads',
  multiboot: 'multiboot images are loaded by iPXE',
  efi: 'the installer is an EFI image that iPXE starts',
};

/**
 * The same installer for a machine on GRUB (boot-scripts/boot-program.ts):
 * a linux loader's kernel, initrds and command line; the other loaders
 * only iPXE runs, which the machine is told.
 */
export function installerProgram(input: InstallerScriptInput): BootProgram {
  const label = input.taskId === null ? `the ${input.label} installer` : `install task ${input.taskId} (${input.label})`;
  const kernel = input.files.find((file) => file.role === 'kernel');
  if (!kernel) return { kind: 'message', message: `${label}: the catalog entry names no kernel file`, retry: false };
  if (input.loader !== 'linux') return { kind: 'ipxe_only', label, reason: IPXE_ONLY_LOADERS[input.loader] };
  return {
    kind: 'linux',
    label,
    kernel: servedFileUrl(input.bootUrl, kernel.served_path),
    initrds: input.files.filter((file) => file.role === 'initrd').map((file) => servedFileUrl(input.bootUrl, file.served_path)),
    cmdline: input.cmdline,
  };
}

function failed(): string[] {
  return [
    ':bw-failed',
    `echo Bootwright: the installer could not be loaded; retrying in ${INSTALLER_RETRY_SECONDS} seconds...`,
    `sleep ${INSTALLER_RETRY_SECONDS}`,
    'exit 1',
  ];
}

/** A task whose entry does not support the machine's firmware: say so and leave the machine to its firmware (exit 0, no retry loop). */
export function unsupportedFirmwareScript(taskId: number, reason: string): string {
  return lines(
    IPXE_SHEBANG,
    `echo Bootwright: install task ${taskId} cannot start on this machine: ${ipxeSafeText(reason)}`,
    'echo The task stays pending; change it in Bootwright (or boot the machine in the other firmware mode).',
    'sleep 10',
    'exit 0',
  );
}

function lines(...parts: string[]): string {
  return `${parts.join('\n')}\n`;
}
