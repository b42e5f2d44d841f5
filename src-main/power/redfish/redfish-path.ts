import { BmcError } from '../bmc-error.js';

/** Every resource we follow lives under the service root (DSP0266 §6.2). */
export const SERVICE_PREFIX = '/redfish/v1/';
/** Longest resource path we accept from a BMC; real ones are under 100 characters. */
export const MAX_SERVICE_PATH = 512;

/** RFC 3986 pchar minus '%' (handled apart), plus '/': the bytes that may stand in a path as they are. */
const PATH_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;
/** C0 controls, DEL and C1 controls: never in a URI, and a BMC sending them is up to something. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function hexByte(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * Percent-encodes what may not stand in a request path as it is (RFC 3986
 * §2.1, UTF-8 bytes): non-ASCII such as '€', spaces, '\\', '"'. Existing
 * %XX escapes are kept. Node's http.request throws synchronously on a path
 * with unescaped characters; after this it cannot.
 */
export function encodePath(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i += 1) {
    const char = path[i]!;
    if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) out += char;
    else if (PATH_SAFE.test(char)) out += char;
    else {
      // One code point (a surrogate pair is two UTF-16 units); lone surrogates were refused before.
      const codePoint = path.codePointAt(i)!;
      const text = String.fromCodePoint(codePoint);
      for (const byte of Buffer.from(text, 'utf8')) out += hexByte(byte);
      i += text.length - 1;
    }
  }
  return out;
}

/** True when `text` has an unpaired UTF-16 surrogate (JSON can carry one; UTF-8 cannot). */
function hasLoneSurrogate(text: string): boolean {
  return Buffer.from(text, 'utf8').toString('utf8') !== text;
}

/**
 * A resource path taken from a BMC's JSON (`@odata.id`, an action
 * `target`), checked and made safe to request. The BMC is not trusted: the
 * path must be a string under /redfish/v1/, at most MAX_SERVICE_PATH long,
 * without control characters, query, fragment, backslash or a '..' segment
 * (also percent-encoded); what remains is percent-encoded where needed.
 * Anything else is a `protocol` BmcError naming what was refused.
 */
export function servicePath(value: unknown, what: string, target: string): string {
  const refuse = (why: string) => new BmcError('protocol', `${target}: ${what} has no usable @odata.id (${why})`);
  if (typeof value !== 'string') throw refuse(value === undefined ? 'missing' : 'not a string');
  const id = value.trim();
  if (id.length > MAX_SERVICE_PATH) throw refuse(`longer than ${MAX_SERVICE_PATH} characters`);
  if (!id.startsWith(SERVICE_PREFIX)) throw refuse(`not under ${SERVICE_PREFIX}`);
  if (CONTROL.test(id)) throw refuse('control characters');
  if (hasLoneSurrogate(id)) throw refuse('not valid Unicode');
  if (/[?#\\\s]/.test(id)) throw refuse('a query, fragment, backslash or space');
  // '..' anywhere (also as %2e%2e) could climb out of the service root on a lax server.
  if (/\.\.|%2e%2e|%2e\.|\.%2e/i.test(id)) throw refuse("a '..' segment");
  const encoded = encodePath(id);
  if (encoded.length > MAX_SERVICE_PATH * 3) throw refuse('too long once encoded');
  return encoded;
}
