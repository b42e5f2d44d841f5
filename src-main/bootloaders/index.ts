export { Bootloaders, defaultBootloaderDir, RESTORE_HINT, type BootFileCheck, type BootloaderCheckReport, type BootloaderFileView } from './bootloaders.js';
export { archmapFileRefs, expectationForArchCode, type ArchmapEntryLike, type ArchmapFileRef } from './archmap-refs.js';
export { loadManifest, parseManifest, BOOTLOADER_ARCHITECTURES, type BootloaderManifestEntry, type BootFileFormat } from './manifest.js';
export { inspectFormat, PXE_MAX_SIZE } from './file-format.js';
export { inspectBootFile, sha256File, type BootFileProblem } from './boot-file-check.js';
