import { AppError } from '../../core/errors.js';

/*
 * A kernel command line as the arguments of an iPXE `kernel` line
 * (https://ipxe.org/scripting; iPXE src/core/exec.c and settings.c):
 *
 * - the line is split at whitespace and the words joined again with one
 *   space: runs of spaces collapse, and a newline would end the command (the
 *   next line would run as a command of its own), so whitespace of any kind
 *   becomes one space;
 * - a WORD that is exactly `;`, `&&` or `||` ends the command, and a word
 *   starting with `#` starts a comment. Inside a word these characters are
 *   plain text: `ds=nocloud-net;s=http://…/` (cloud-init) needs no escaping.
 *   Such a word is written with its first character taken from a setting
 *   (`${bw-c3b:string}` holding `;`), because the terminator test runs on the
 *   words before settings are expanded;
 * - `${name}` is expanded everywhere, repeatedly (an unknown setting becomes
 *   the empty string), and iPXE has no escape for it: a literal `${…}` cannot
 *   reach the kernel by any spelling, since an expansion that yields `${…}` is
 *   expanded again. Such a command line is refused with a clear error.
 */

/** One character supplied by a setting: `set bw-c3b:hex 3b` then `${bw-c3b:string}`. */
function escapedChar(char: string): { setting: string; reference: string } {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
  return { setting: `set bw-c${hex}:hex ${hex}`, reference: `\${bw-c${hex}:string}` };
}

export interface IpxeArguments {
  /** The words joined with single spaces, escaped where needed. */
  text: string;
  /** `set` lines that must run before the `kernel` line (empty when nothing needed escaping). */
  settings: string[];
}

const TERMINATORS = new Set([';', '&&', '||']);

/**
 * Escapes a rendered command line for the `kernel` line. Throws AppError
 * VALIDATION_FAILED when it holds `${…}` (iPXE would expand it) or a
 * control character other than whitespace.
 */
export function ipxeKernelArguments(cmdline: string): IpxeArguments {
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(cmdline)) {
    throw new AppError('VALIDATION_FAILED', 'the kernel command line holds a control character, which iPXE cannot pass to the kernel');
  }
  const words = cmdline.split(/\s+/).filter((word) => word !== '');
  // Expansion works word by word (iPXE expands each token): `${` and `}` in two words stay as they are.
  if (words.some((word) => /\$\{[^}]*\}/.test(word))) {
    throw new AppError(
      'VALIDATION_FAILED',
      'the kernel command line holds "${…}", which iPXE expands as a setting (there is no escape for it); remove it from the catalog entry\'s cmdline, its overlay or the task variables',
    );
  }
  const settings = new Set<string>();
  const out = words.map((word) => {
    if (!TERMINATORS.has(word) && !word.startsWith('#')) return word;
    const { setting, reference } = escapedChar(word.charAt(0));
    settings.add(setting);
    return `${reference}${word.slice(1)}`;
  });
  return { text: out.join(' '), settings: [...settings] };
}
