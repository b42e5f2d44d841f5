/**
 * Pieces of iPXE script syntax shared by the generated scripts
 * (https://ipxe.org/scripting, https://ipxe.org/cfg).
 */

/** The first line iPXE requires of a script image. */
export const IPXE_SHEBANG = '#!ipxe';

/**
 * The query that identifies a machine to its per-host script. iPXE expands
 * each `${…}` on the client. `:uristring` percent-encodes string settings so
 * a serial number with spaces or `&` cannot break the URL
 * (https://ipxe.org/cfg/uristring). It must not be applied to `mac` and
 * `uuid`: those are binary settings, and `:uristring` encodes their raw
 * bytes — a real iPXE (Debian's ipxe-qemu, seen in the QEMU e2e test) sent
 * `mac=RT` for 52:54:00:… and cut the URL at the first zero byte. Their
 * default forms (hex with colons, dashed UUID) are URL-safe as they are.
 */
export const IDENTITY_QUERY =
  'mac=${mac}&arch=${buildarch:uristring}&platform=${platform:uristring}&uuid=${uuid}&serial=${serial:uristring}';

/** True when the text starts with the `#!ipxe` line (after an optional byte order mark). */
export function hasIpxeShebang(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '';
  return first.trimEnd() === IPXE_SHEBANG;
}

/**
 * Text safe as the argument of `echo`: one line of letters, digits, spaces
 * and harmless punctuation. Everything else becomes `_`, in particular `$`
 * (settings expansion), `#` (a comment), `&`, `|` and `;` (command
 * separators: error text must never become a command) and quotes.
 */
export function ipxeSafeText(text: string, maxLength = 200): string {
  const cleaned = text
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[^A-Za-z0-9 .,:()/_=+@%*!?<>[\]-]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > maxLength ? `${cleaned.slice(0, maxLength - 3)}...` : cleaned;
}

/** Unix line endings and a final newline: the script as iPXE reads it best. */
export function normalizeScriptText(text: string): string {
  const unix = text.replace(/\r\n?/g, '\n');
  return unix.endsWith('\n') ? unix : `${unix}\n`;
}
