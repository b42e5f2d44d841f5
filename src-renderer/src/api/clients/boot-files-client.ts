import type { BootloaderCheckReport, BootloaderFile, CheckArchitectureId, CheckFileBody, FileCheck, IgnoredArchitectures } from '@contracts/boot-files';
import type { ApiClient } from '../api-client.js';

/** The boot-files area's API (src-main/boot-files/boot-files-routes.ts), typed by its contract. */
export function bootFilesClient(client: ApiClient) {
  return {
    bootloaders: {
      files: (): Promise<BootloaderFile[]> => client.get('/bootloader/files'),
      check: (): Promise<BootloaderCheckReport> => client.get('/bootloader/check'),
      checkFile: (body: CheckFileBody): Promise<FileCheck> => client.post('/bootloader/check-file', body),
      /** The whole list of architectures whose check problems are only information. */
      setIgnored: (architectures: CheckArchitectureId[]): Promise<IgnoredArchitectures> => client.put('/bootloader/check/ignored-architectures', { architectures }),
    },
  };
}
