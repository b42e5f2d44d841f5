import { AppError } from '../core/errors.js';

/*
 * The lexical rules of every path /files and /fs/browse take (docs/files.md,
 * "Path rules"). They run before the file system is asked; the real-path
 * checks (symlinks leading out, special files) come after, in file-walk.ts.
 */

/** Partial uploads are written beside their target under this prefix; listings skip such names and no request may name one. */
export const PARTIAL_PREFIX = '.bootwright-partial-';

/**
 * How many rounds of percent-decoding are looked through. fastify decodes a
 * query value once; a client that encodes twice (`%252e%252e`) hopes that
 * something downstream decodes again, so what the text decodes to is checked
 * too, up to a depth no honest file name reaches.
 */
const DECODE_ROUNDS = 3;

/** A request field's refusal: 400 VALIDATION_FAILED naming the field. */
export function refuse(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { details: [{ field, message }] });
}

/** Decodes %XX escapes byte by byte (latin-1), tolerating stray '%': enough to see what an escape hides. */
function percentDecode(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The problem of one spelling of a path, or null. `absolute` says whether the path must be absolute (browse) or relative (/files). */
function spellingProblem(text: string, absolute: boolean): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character';
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u001f\u007f]/.test(text)) return 'contains a control character';
  // Refused rather than translated: on Windows a backslash is a separator, so `..\\x` would climb.
  if (text.includes('\\')) return 'contains a backslash';
  if (/^[A-Za-z]:/.test(text)) return 'is a drive-letter path';
  if (!absolute && text.startsWith('/')) return 'is an absolute path; give it relative to the root';
  if (absolute && !text.startsWith('/')) return 'must be an absolute path';
  if (text.split('/').includes('..')) return 'has a ".." segment';
  return null;
}

/** Why `raw` is not acceptable in any of the spellings it decodes to, or null. */
export function pathProblem(raw: string, absolute: boolean): string | null {
  let text = raw;
  for (let round = 0; round <= DECODE_ROUNDS; round += 1) {
    const problem = spellingProblem(text, absolute);
    if (problem) return round === 0 ? problem : `${problem} once percent-decoded`;
    const decoded = percentDecode(text);
    if (decoded === text) break;
    text = decoded;
  }
  return null;
}

/** The segments of a relative path, without empty and '.' segments. */
function segmentsOf(normal: string): string[] {
  return normal.split('/').filter((segment) => segment !== '' && segment !== '.');
}

/**
 * A relative path inside a root as a normalised path ('' is the root), or a
 * VALIDATION_FAILED naming `field`: no '..' segment, no leading '/', no
 * backslash, NUL or control character, in the text or what it
 * percent-decodes to; no segment naming a partial upload.
 */
export function checkRelativePath(raw: string, field: string): string {
  const problem = pathProblem(raw, false);
  if (problem) throw refuse(field, `${JSON.stringify(raw.slice(0, 200))} ${problem}`);
  const segments = segmentsOf(raw);
  if (segments.some((segment) => segment.startsWith(PARTIAL_PREFIX))) throw refuse(field, `names starting with ${PARTIAL_PREFIX} are reserved for uploads in progress`);
  return segments.join('/');
}

/** A file name from a multipart part: one path segment under the same rules. */
export function checkFileName(raw: string, field: string): string {
  const name = checkRelativePath(raw, field);
  if (name === '' || name.includes('/')) throw refuse(field, `${JSON.stringify(raw.slice(0, 200))} is not a plain file name`);
  return name;
}

/** An absolute path on this machine (/fs/browse), normalised, under the same rules (but absolute). */
export function checkAbsolutePath(raw: string, field: string): string {
  const problem = pathProblem(raw, true);
  if (problem) throw refuse(field, `${JSON.stringify(raw.slice(0, 200))} ${problem}`);
  return `/${segmentsOf(raw).join('/')}`;
}

/** The directory part and the last segment of a normalised relative path ('a/b/c' → 'a/b', 'c'). */
export function splitPath(normal: string): { dir: string; name: string } {
  const slash = normal.lastIndexOf('/');
  return slash < 0 ? { dir: '', name: normal } : { dir: normal.slice(0, slash), name: normal.slice(slash + 1) };
}
