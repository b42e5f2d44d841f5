import type { BootFilePresence } from '../../boot-files/boot-files.js';

/** Where "boot this ISO" looks for wimboot: Bootwright does not bundle it (resources/bootloaders has none), an admin may put it there. */
export const WIMBOOT_PATH = 'wimboot';

/** BootProfileDeps.wimboot over the boot files: the path when a wimboot file is in the boot root, else null. */
export function wimbootInBootRoot(files: { presence(path: string): Promise<BootFilePresence> }): () => Promise<string | null> {
  return async () => ((await files.presence(WIMBOOT_PATH)) === 'file' ? WIMBOOT_PATH : null);
}
