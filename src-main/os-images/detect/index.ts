/* Detection of an image's OS and boot method (docs/os-detection.md). */
export { detectImage } from './detect-image.js';
export { MAX_CONFIG_FILES, MAX_MENU_ENTRIES } from './boot-menu.js';
export { MAX_LISTINGS, MAX_TEXT_BYTES } from './tree-lookup.js';
