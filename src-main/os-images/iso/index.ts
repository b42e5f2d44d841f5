/*
 * Bootwright's ISO 9660 reader (docs/iso9660.md): ECMA-119 volumes with
 * Joliet and Rock Ridge names, multi-extent files, El Torito boot catalogs
 * and UDF-bridge detection, read through positioned reads of the file.
 */
export { openIso, readIsoInfo } from './open-iso.js';
export { IsoTree } from './iso-tree.js';
export { IsoSource } from './iso-source.js';

import type { ImageOpener } from '../image-ports.js';
import { openIso } from './open-iso.js';

/** openIso as the os-images area's ImageOpener seam. */
export const isoImageOpener: ImageOpener = openIso;
