import type { BootClient, VirtualFile, VirtualFileProvider } from '../boot-files/virtual-files.js';
import type { BootRequest, BootScriptService } from './boot-script-service.js';
import { MENU_KEY_PATTERN } from './boot-menu.js';
import { ENTRY_SCRIPT_PATH, HOST_SCRIPT_PATH } from './server-endpoint.js';
import { grubEntryChain, ownsGrubPath, parseGrubHostPath } from './grub/grub-paths.js';

const SCRIPT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** iPXE setting values as they arrive; an unset setting expands to the empty string. */
const ARCH = /^[a-z0-9_]{1,16}$/;
const PLATFORM = /^[a-z0-9_]{1,16}$/;
const UUID = /^[0-9A-Fa-f-]{1,64}$/;
const MAX_SERIAL = 128;

/**
 * Serves the generated iPXE scripts and GRUB configurations as virtual files
 * of the boot root, over HTTP (`/boot/ipxe/entry.ipxe`,
 * `/boot/ipxe/boot.ipxe?mac=…`) and TFTP (the entry script; TFTP has no
 * query, so the per-host script needs HTTP). GRUB fetches over TFTP: its
 * entry at each chain's prefix and `grub/host/<cpu>/<mac>.cfg` carry the
 * machine's identity in the path (grub/grub-paths.ts).
 */
export function bootScriptProvider(scripts: BootScriptService): VirtualFileProvider {
  return {
    async resolve(path: string, client: BootClient): Promise<VirtualFile | null> {
      if (path === ENTRY_SCRIPT_PATH) return text(await scripts.entryScript(client.ip));
      if (path === HOST_SCRIPT_PATH) return text(await scripts.hostScript(bootRequestFrom(client)));
      if (grubEntryChain(path) !== null) return text(scripts.grubEntry(client.ip));
      const grub = parseGrubHostPath(path);
      if (grub !== null) {
        return text(
          await scripts.hostGrubConfig({
            ip: client.ip,
            mac: grub.mac === '' ? null : grub.mac,
            arch: grub.cpu,
            platform: 'efi',
            uuid: null,
            serial: null,
            profileId: grub.profileId,
            choice: grub.choice,
          }),
        );
      }
      return null;
    },
    owns: (path: string) => path === ENTRY_SCRIPT_PATH || path === HOST_SCRIPT_PATH || ownsGrubPath(path),
  };
}

/** Reads the machine's identity from the query; values that are not what iPXE sends are dropped, not trusted. */
export function bootRequestFrom(client: BootClient): BootRequest {
  const query = client.query;
  const value = (name: string, pattern?: RegExp, max = 64): string | null => {
    const raw = query.get(name)?.trim();
    if (raw === undefined || raw === '' || raw.length > max) return null;
    if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
    return pattern && !pattern.test(raw) ? null : raw;
  };
  const profile = value('profile', /^[1-9][0-9]{0,9}$/);
  return {
    ip: client.ip,
    mac: value('mac', undefined, 32),
    arch: value('arch', ARCH),
    platform: value('platform', PLATFORM),
    uuid: value('uuid', UUID)?.toLowerCase() ?? null,
    serial: value('serial', undefined, MAX_SERIAL),
    profileId: profile === null ? null : Number(profile),
    choice: value('choice', MENU_KEY_PATTERN, 120),
  };
}

function text(script: string): VirtualFile {
  return { content: Buffer.from(script, 'utf8'), contentType: SCRIPT_CONTENT_TYPE };
}
