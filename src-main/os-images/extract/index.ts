/* Extraction of an image's boot files or whole tree into the boot root (docs/os-detection.md). */
export { extractImage, imageExtractor, PROGRESS_INTERVAL_MS, type ExtractResult } from './extract-image.js';
export { bootSelection, cmdlineImagePaths } from './boot-selection.js';
export { MAX_DEPTH, MAX_ENTRIES, unsafeName, type Skipped } from './extract-plan.js';
