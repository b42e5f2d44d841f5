import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { FORMAT_PROBE_BYTES, inspectFormat } from './file-format.js';
import type { BootFileFormat } from './bootloader-manifest.js';

/** One thing wrong with a boot file, with what to do about it. */
export interface BootFileProblem {
  code: 'missing' | 'not_a_file' | 'unreadable' | 'empty' | 'wrong_format' | 'checksum_mismatch' | 'outside_root' | 'root_mismatch' | 'shadowed_config';
  /**
   * error: clients sent to this file cannot boot. warning: the archmap names
   * a file for an architecture Bootwright ships no build for, and nobody put
   * one there (only such clients are affected). info: a warning about
   * architectures no machine was seen with (check-ranking.ts).
   */
  severity: 'error' | 'warning' | 'info';
  message: string;
  fix: string;
}

/** What a client fetching this file needs to be true, and the manifest's facts when it knows the file. */
export interface BootFileExpectation {
  format: BootFileFormat | null;
  machine: string | null;
  sha256: string | null;
  /** "ipxe 1.0.0+git-…" for bundled files. */
  bundledFrom: string | null;
}

export interface BootFileInspection {
  present: boolean;
  readable: boolean;
  size: number | null;
  format: BootFileFormat | null;
  sha256: string | null;
  checksum: 'match' | 'mismatch' | 'unknown';
  problems: BootFileProblem[];
}

/**
 * Checks one file at `absolute` (already confined to its root): present, a
 * regular file, readable, non-empty, the right format, and the manifest's
 * SHA-256. `restoreHint` says how to get the bundled copy back.
 */
export async function inspectBootFile(absolute: string, display: string, expected: BootFileExpectation, restoreHint: string): Promise<BootFileInspection> {
  const result: BootFileInspection = { present: false, readable: false, size: null, format: null, sha256: null, checksum: 'unknown', problems: [] };
  const restore = expected.bundledFrom ? restoreHint : 'copy the file into the boot root, or point the archmap entry at a bundled boot loader (GET /api/v1/bootloader/files)';
  let handle;
  try {
    handle = await open(absolute, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      result.problems.push(
        expected.bundledFrom
          ? { code: 'missing', severity: 'error', message: `${display} does not exist`, fix: restore }
          : {
              code: 'missing',
              severity: 'warning',
              message: `${display} does not exist and is not bundled: clients of this architecture get no boot loader`,
              fix: `put a ${expected.format === 'pxe' ? 'BIOS PXE' : `UEFI ${expected.machine ?? ''}`.trim()} boot loader at that path in the boot root, or remove the archmap entry`,
            },
      );
    } else {
      result.present = true;
      result.problems.push({ code: 'unreadable', severity: 'error', message: `${display} cannot be read: ${code ?? 'error'}`, fix: `give Bootwright's user read access to ${absolute}` });
    }
    return result;
  }
  try {
    result.present = true;
    const stats = await handle.stat();
    if (!stats.isFile()) {
      result.problems.push({ code: 'not_a_file', severity: 'error', message: `${display} is not a regular file`, fix: `replace ${absolute} with the boot loader file; ${restore}` });
      return result;
    }
    result.size = stats.size;
    const head = Buffer.alloc(Math.min(FORMAT_PROBE_BYTES, stats.size));
    try {
      await handle.read(head, 0, head.length, 0);
    } catch (err) {
      result.problems.push({ code: 'unreadable', severity: 'error', message: `${display} cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, fix: `give Bootwright's user read access to ${absolute}` });
      return result;
    }
    result.readable = true;
    if (stats.size === 0) {
      result.problems.push({ code: 'empty', severity: 'error', message: `${display} is empty`, fix: `delete it, then ${restore}` });
      return result;
    }
    if (expected.format) {
      const report = inspectFormat(head, stats.size, expected.format, expected.machine);
      result.format = report.detected;
      if (report.problem) {
        result.problems.push({
          code: 'wrong_format',
          severity: 'error',
          message: `${display}: ${report.problem}`,
          fix: expected.bundledFrom
            ? `delete it, then ${restore}`
            : `clients of this architecture need a ${expected.format === 'pe' ? 'UEFI (PE/COFF .efi)' : 'BIOS PXE (.kpxe/.pxe/.0)'} boot loader: fix the archmap entry or the file`,
        });
      }
    }
    result.sha256 = await sha256File(absolute);
    if (expected.sha256) {
      result.checksum = result.sha256 === expected.sha256 ? 'match' : 'mismatch';
      if (result.checksum === 'mismatch') {
        result.problems.push({
          code: 'checksum_mismatch',
          severity: 'error',
          message: `${display} differs from the bundled ${expected.bundledFrom ?? 'file'} (SHA-256 ${result.sha256.slice(0, 12)}…, expected ${expected.sha256.slice(0, 12)}…)`,
          fix: `if you did not replace it on purpose, delete it, then ${restore}`,
        });
      }
    }
    return result;
  } finally {
    await handle.close();
  }
}

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
