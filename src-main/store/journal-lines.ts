import { crc32 } from 'node:zlib';

/**
 * The line format of journals and snapshots: `<crc32, 8 hex digits> <JSON>\n`.
 * The checksum covers the JSON text, so a line cut short by a crash or
 * damaged on disk is recognised as such instead of being parsed (a torn line
 * can still be valid JSON: `{"a":1}` cut after `1` is not, but a record whose
 * last field is a number cut to fewer digits would be, with another value).
 *
 * Lines without a checksum (a JSON object at the start of the line) are what
 * the lease journal wrote before checksums; they are still read, as before
 * (parsed or skipped).
 */
export function encodeLine(record: unknown): string {
  const json = JSON.stringify(record);
  return `${hex(crc32(json))} ${json}\n`;
}

export type DecodedLine = { ok: true; value: unknown } | { ok: false; reason: 'checksum' | 'syntax' };

/** Decodes one line (without its newline). */
export function decodeLine(line: string): DecodedLine {
  if (line.startsWith('{')) return parseJson(line);
  if (line.length < 10 || line[8] !== ' ') return { ok: false, reason: 'syntax' };
  const json = line.slice(9);
  if (hex(crc32(json)) !== line.slice(0, 8)) return { ok: false, reason: 'checksum' };
  return parseJson(json);
}

function parseJson(text: string): DecodedLine {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'syntax' };
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}
