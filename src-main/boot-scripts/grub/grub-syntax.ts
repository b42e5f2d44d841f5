/**
 * Writing GRUB script safely (GRUB manual, "Shell-like scripting"): every
 * word Bootwright did not write itself goes in single quotes, where GRUB
 * expands nothing; a single quote inside is closed, escaped and reopened
 * (`'\''`), as in sh. Text shown to people loses control characters, so a
 * label cannot start a new command line.
 */

/** One GRUB word holding `text` literally. */
export function grubQuote(text: string): string {
  return `'${text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/'/g, `'\\''`)}'`;
}

/** Text for `echo` and menu titles: one line, at most `max` characters, quoted. */
export function grubText(text: string, max = 160): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return grubQuote(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

/**
 * Characters GRUB's `linux` command passes on with a backslash before them
 * (grub-core/lib/cmdline.c escapes `\`, `'` and `"`), which the kernel's
 * parser does not undo: a command line holding one cannot reach the kernel
 * as written.
 */
const ESCAPED_BY_GRUB = /["'\\]/;

/**
 * The kernel command line as GRUB words, or the reason it cannot be:
 * whitespace-separated arguments, each quoted, so `$` and `;` reach the
 * kernel as they are.
 */
export function grubKernelArguments(cmdline: string): { words: string[] } | { problem: string } {
  const found = ESCAPED_BY_GRUB.exec(cmdline);
  if (found) {
    return { problem: `the kernel command line holds ${found[0] === '\\' ? 'a backslash' : `a ${found[0] === '"' ? 'double' : 'single'} quote`}, which GRUB passes on escaped with a backslash, so the kernel would not get it as written` };
  }
  return { words: cmdline.split(/\s+/).filter((word) => word !== '').map(grubQuote) };
}

/** Where a machine on GRUB fetches `path` (relative to the TFTP root) from the server at `serverIp`. */
export function tftpDevicePath(serverIp: string, path: string): string {
  return `(tftp,${serverIp})/${path.replace(/^\/+/, '')}`;
}

/**
 * A URL a profile or task names, as GRUB fetches it: a file under this
 * server's boot URL becomes its TFTP path (the signed network GRUB has no
 * HTTP under Secure Boot: it loads no modules); anything else cannot be
 * fetched by GRUB and returns null.
 */
export function grubFileFromUrl(url: string, bootUrl: string, serverIp: string): string | null {
  const prefix = `${bootUrl.replace(/\/+$/, '')}/`;
  if (!url.startsWith(prefix)) return null;
  const relative = url.slice(prefix.length).split(/[?#]/, 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = relative.split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
  if (decoded === '' || decoded.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  return tftpDevicePath(serverIp, decoded);
}
