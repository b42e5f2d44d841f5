import type { CatalogArch } from '../netboot-contract.js';

/*
 * Expected digests of an entry's files: given in the catalog (`sha256` map)
 * or published by the distro in a SHA256SUMS-style file (`checksums`),
 * whose lines are `<hex>  <name>` (GNU coreutils; `*` before the name marks
 * binary mode). Names are relative to the checksum file's folder, often
 * with a `./` prefix (Debian's installer images).
 */

export type DigestAlgorithm = 'sha256' | 'sha512';

/** The digest a download must have. `source` says where it came from, for error messages. */
export interface ExpectedDigest {
  algorithm: DigestAlgorithm;
  hex: string;
  source: string;
}

const HEX_LENGTH: Record<DigestAlgorithm, number> = { sha256: 64, sha512: 128 };

/** Largest checksum file read (Debian's installer SHA256SUMS is ~100 KB). */
export const MAX_CHECKSUM_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The digests listed in a checksum file, by name (with `*`, `strip_prefix`
 * and a leading `./` removed). Lines that are not `<hex of the algorithm's
 * length> <name>` (comments, BSD-style lines, blanks) are skipped.
 */
export function parseChecksumFile(text: string, algorithm: DigestAlgorithm, stripPrefix = ''): Map<string, string> {
  const length = HEX_LENGTH[algorithm];
  const digests = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const match = /^([0-9a-fA-F]+) [ *](.+)$/.exec(line);
    if (!match || match[1] === undefined || match[2] === undefined || match[1].length !== length) continue;
    digests.set(normalizeName(match[2], stripPrefix), match[1].toLowerCase());
  }
  return digests;
}

function normalizeName(name: string, stripPrefix: string): string {
  let out = name.trim();
  if (stripPrefix && out.startsWith(stripPrefix)) out = out.slice(stripPrefix.length);
  while (out.startsWith('./')) out = out.slice(2);
  return out;
}

/**
 * The name under which `filePath` (relative to the mirror) appears in a
 * checksum file at `checksumFile` (relative to the mirror too): its path
 * relative to the checksum file's folder, or null when it lies outside it.
 */
export function nameInChecksumFile(filePath: string, checksumFile: string): string | null {
  const slash = checksumFile.lastIndexOf('/');
  if (slash < 0) return filePath;
  const folder = checksumFile.slice(0, slash + 1);
  return filePath.startsWith(folder) ? filePath.slice(folder.length) : null;
}

/**
 * Plain substitution of the catalog's path placeholders, for a checksum file
 * path the catalog did not expand (it expands the file paths it resolves).
 */
export function expandPlaceholders(text: string, values: { version: string; codename: string | undefined; arch_alias: string }): string {
  return text
    .replace(/\{\{\s*version\s*\}\}/g, values.version)
    .replace(/\{\{\s*codename\s*\}\}/g, values.codename ?? '')
    .replace(/\{\{\s*arch_alias\s*\}\}/g, values.arch_alias);
}

/** The checksum file's URL under the mirror. */
export function checksumFileUrl(mirror: string, checksums: NonNullable<CatalogArch['checksums']>, expand: (text: string) => string): string {
  return `${mirror.replace(/\/+$/, '')}/${expand(checksums.file).replace(/^\/+/, '')}`;
}
