import { CONFIG_OPTIONS } from '../core/config.js';

/** Flags of loadConfig that take a value (--config and every CONFIG_OPTIONS flag). */
const VALUE_FLAGS = new Set(['config', ...CONFIG_OPTIONS.map((spec) => spec.flag)]);

/**
 * The configuration flags among the desktop app's command-line arguments.
 * Electron's argv also holds Chromium switches (--no-sandbox, --enable-logging)
 * and, unpackaged, the app path; those are not ours and would make the strict
 * flag parser refuse to start, so only known flags (and their values) pass.
 */
export function desktopConfigArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match || !VALUE_FLAGS.has(match[1]!)) continue;
    if (match[2] !== undefined) {
      out.push(arg);
    } else if (i + 1 < argv.length) {
      out.push(arg, argv[i + 1]!);
      i += 1;
    }
  }
  return out;
}
