export { BootFiles, type BootFileLookup } from './boot-files.js';
export { VirtualFileRegistry, type BootClient, type VirtualFile, type VirtualFileProvider } from './virtual-files.js';
export { normalizeBootPath, resolveInsideRoot, isInside, MAX_BOOT_PATH_LENGTH, type RefusalReason } from './path-confinement.js';
export { httpBootPlugin, BOOT_PREFIX } from './http-boot-plugin.js';
export { parseRange, type ByteRange } from './byte-range.js';
