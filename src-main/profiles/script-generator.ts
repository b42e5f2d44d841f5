import { IDENTITY_QUERY, IPXE_SHEBANG } from './ipxe-syntax.js';
import type { BootSource, LinuxConfig, MenuConfig } from './profile-types.js';

/**
 * The script templates generated for every boot type but ipxe_script. They
 * are Liquid templates like hand-written ones: paths and the command line may
 * use `{{ host.* }}`, `{{ variables.* }}`…, and relative paths become URLs
 * under `{{ server.boot_url }}`.
 */
export function generateScript(source: BootSource): string {
  switch (source.boot_type) {
    case 'linux':
      return linuxScript(source.linux!);
    case 'chain':
      return lines(header('chain'), `chain --autofree ${bootUrl(source.chain!.url)}`);
    case 'sanboot':
      // --no-describe: do not publish the SAN device in iBFT/ACPI; the image is only booted once.
      return lines(header('sanboot'), `sanboot --no-describe ${bootUrl(source.sanboot!.url)}`);
    case 'local':
      return lines(`${IPXE_SHEBANG}`, '# Generated: boot from the local disk (exit to the firmware\'s next boot device).', ...LOCAL_BOOT);
    case 'menu':
      return menuScript(source.menu!, header('menu'));
    case 'ipxe_script':
      throw new Error('ipxe_script profiles have a hand-written script');
  }
}

/** `exit 0` returns to the firmware, which tries the next boot device (https://ipxe.org/cmd/exit). */
const LOCAL_BOOT = ['echo Booting from the local disk...', 'exit 0'];

function header(type: string): string {
  return `${IPXE_SHEBANG}\n# Generated from this profile's ${type} settings; edit those, not this script.`;
}

function linuxScript(linux: LinuxConfig): string {
  // Named initrds with matching initrd= arguments: UEFI kernels (EFI stub) load
  // exactly the initrds named on their command line; BIOS ignores the names.
  const names = linux.initrds.map((_url, index) => `initrd${index}`);
  const args = [...names.map((name) => `initrd=${name}`), linux.cmdline.trim()].filter((part) => part !== '');
  return lines(
    header('linux'),
    `kernel ${bootUrl(linux.kernel)}${args.length > 0 ? ` ${args.join(' ')}` : ''}`,
    ...linux.initrds.map((url, index) => `initrd --name ${names[index]} ${bootUrl(url)}`),
    'boot',
  );
}

/** Choices of another area in the netboot default menu, under a heading (boot-scripts/boot-menu.ts). */
export interface MenuChoiceSection {
  title: string;
  /** `key` is URL- and script-safe (MENU_KEY_PATTERN); `label` is shown as it is, so callers pass iPXE-safe text. */
  items: readonly { key: string; label: string }[];
}

/**
 * An iPXE menu (https://ipxe.org/cmd/menu): one item per entry, then the
 * sections of other choices under `item --gap` headings, and "boot from the
 * local disk" last. A choice chains to the machine's own script with
 * `profile=<id>` (or `choice=<key>`), which serves it if this menu offers
 * it; a choice that fails to boot comes back to the menu.
 */
export function menuScript(menu: MenuConfig, head: string, sections: readonly MenuChoiceSection[] = []): string {
  const defaultLabel = menu.default_entry === null ? 'local' : `p${menu.default_entry}`;
  const timeout = menu.timeout_seconds > 0 ? `--timeout ${menu.timeout_seconds * 1000} ` : '';
  const choices = sections.filter((section) => section.items.length > 0);
  let next = 0;
  const numbered = choices.map((section) => ({ title: section.title, items: section.items.map((item) => ({ ...item, target: `c${(next += 1)}` })) }));
  const chained = (target: string, query: string) => [`:${target}`, `chain --autofree {{ server.script_url }}?${IDENTITY_QUERY}&${query} || goto bw-failed`, 'exit 0'];
  return lines(
    head,
    ':bw-menu',
    `menu ${menu.title}`,
    ...menu.entries.map((entry) => `item p${entry.profile_id} ${entry.label}`),
    ...numbered.flatMap((section) => [`item --gap -- ${section.title}`, ...section.items.map((item) => `item ${item.target} ${item.label}`)]),
    'item local Boot from the local disk',
    `choose ${timeout}--default ${defaultLabel} bw-choice || goto local`,
    'goto ${bw-choice}',
    ...menu.entries.flatMap((entry) => chained(`p${entry.profile_id}`, `profile=${entry.profile_id}`)),
    ...numbered.flatMap((section) => section.items.flatMap((item) => chained(item.target, `choice=${item.key}`))),
    ':local',
    ...LOCAL_BOOT,
    ':bw-failed',
    'echo This choice did not boot; back to the menu in 5 seconds.',
    'sleep 5',
    'goto bw-menu',
  );
}

/** An absolute URL as is; a path becomes a URL under the boot root of the server the client reached. */
export function bootUrl(pathOrUrl: string): string {
  const text = pathOrUrl.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  return `{{ server.boot_url }}/${text.replace(/^\/+/, '')}`;
}

function lines(...parts: string[]): string {
  return `${parts.join('\n')}\n`;
}
