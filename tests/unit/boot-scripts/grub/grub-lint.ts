/**
 * A small structural check of generated GRUB script (GRUB manual,
 * "Shell-like scripting"): single quotes closed on every line, double quotes
 * closed, `{`/`}` of menuentry and submenu balanced, `if`/`fi` and
 * `for`/`done` paired, and only the commands Debian's signed network GRUB
 * has built in (it loads no modules under Secure Boot). Returns the problems.
 */
const BUILTIN_COMMANDS = new Set(['set', 'echo', 'sleep', 'configfile', 'for', 'do', 'done', 'if', 'then', 'else', 'fi', 'menuentry', 'submenu', 'linux', 'initrd', 'chainloader', 'boot', 'exit', '}']);

export function lintGrubConfig(text: string): string[] {
  const problems: string[] = [];
  let braces = 0;
  const blocks: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    const at = `line ${index + 1}`;
    if (line === '' || line.startsWith('#')) return;
    // Quotes: walk the line as GRUB's lexer would (single quotes literal, double quotes with $ expansion).
    let quote: "'" | '"' | null = null;
    for (let i = 0; i < line.length; i += 1) {
      const c = line[i];
      if (quote === null && c === '\\') i += 1;
      else if (quote === null && (c === "'" || c === '"')) quote = c;
      else if (quote === c) quote = null;
    }
    if (quote !== null) problems.push(`${at}: unclosed ${quote} quote`);
    const command = line.split(/\s+/, 1)[0] ?? '';
    if (!BUILTIN_COMMANDS.has(command)) problems.push(`${at}: "${command}" is not a command of the signed network GRUB`);
    if (command === 'if') blocks.push('fi');
    if (command === 'for') blocks.push('done');
    if (command === 'fi' || command === 'done') {
      if (blocks.pop() !== command) problems.push(`${at}: ${command} without its opening`);
    }
    if (line.endsWith('{')) braces += 1;
    if (line === '}') braces -= 1;
    if (braces < 0) problems.push(`${at}: } without {`);
  });
  if (braces > 0) problems.push('unclosed {');
  if (blocks.length > 0) problems.push(`unclosed ${blocks.join(', ')}`);
  return problems;
}
