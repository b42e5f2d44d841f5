import { bootUrl } from '../profiles/script-generator.js';
import type { Profile } from '../profiles/profile-types.js';
import type { TemplateData } from '../templates/template-engine.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';
import type { BootProgram } from './boot-program.js';

/** What only iPXE can do, per boot type, said to the person at a GRUB machine. */
const IPXE_ONLY_REASONS: Readonly<Record<'ipxe_script' | 'chain' | 'sanboot', string>> = {
  ipxe_script: 'it is a hand-written iPXE script',
  chain: 'it chains to another iPXE image or script',
  sanboot: 'it boots a disk or ISO image over HTTP with iPXE sanboot',
};

/**
 * A profile as a boot program (boot-program.ts), for machines on GRUB: a
 * linux profile's kernel, initrds and command line rendered with the same
 * template variables as its iPXE script (relative paths under
 * `{{ server.boot_url }}`); a menu profile's entries; local disk; what only
 * iPXE runs said as such. Template errors propagate (TemplateError), as the
 * iPXE render's do.
 */
export async function profileProgram(profile: Profile, templates: TemplateRenderer, data: TemplateData): Promise<BootProgram> {
  const label = `profile "${profile.name}"`;
  switch (profile.boot_type) {
    case 'linux': {
      const linux = profile.linux!;
      const render = (template: string) => templates.render(template, data).then((text) => text.trim());
      const [kernel, cmdline, ...initrds] = await Promise.all([render(bootUrl(linux.kernel)), render(linux.cmdline), ...linux.initrds.map((initrd) => render(bootUrl(initrd)))]);
      return { kind: 'linux', label, kernel: kernel!, initrds, cmdline: cmdline!.replace(/\s+/g, ' ') };
    }
    case 'menu': {
      const menu = profile.menu!;
      return {
        kind: 'menu',
        title: menu.title,
        timeout_seconds: menu.timeout_seconds,
        default_profile_id: menu.default_entry,
        profiles: menu.entries.map((entry) => ({ profile_id: entry.profile_id, label: entry.label })),
        sections: [],
      };
    }
    case 'local':
      return { kind: 'local', message: `${label} boots the local disk` };
    case 'ipxe_script':
    case 'chain':
    case 'sanboot':
      return { kind: 'ipxe_only', label, reason: IPXE_ONLY_REASONS[profile.boot_type] };
  }
}
