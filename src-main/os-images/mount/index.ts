/*
 * Serving mounted images (docs/iso-boot.md): ImageMounts (the ImageMountPort
 * over boot-files' virtual files) and "boot this ISO"
 * (POST /os-images/{id}/boot-profile).
 */
export { ImageMounts, MOUNT_PREFIX, isoFilePath, mountUrlPath, type VirtualFileRegistration } from './image-mounts.js';
export { directoryIndex } from './directory-index.js';
export { defaultProfileName, imageUrlTemplate, isoUrlTemplate, planBootProfile, renderNetbootCmdline, type BootProfilePlan } from './boot-profile.js';
export { bootProfileRoutes, makeBootProfile, type BootProfileDeps, type BootProfileImages } from './boot-profile-routes.js';
export { wimbootInBootRoot, WIMBOOT_PATH } from './wimboot.js';
