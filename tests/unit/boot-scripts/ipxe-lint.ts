/**
 * A structural check of iPXE scripts for tests, following iPXE's own parser
 * (src/image/script.c, src/core/exec.c): the `#!ipxe` signature, labels,
 * every `goto` and menu choice landing on a label, and only known commands.
 * Returns the problems found; an empty list means the script is well formed.
 */
const KNOWN_COMMANDS = new Set([
  'echo', 'exit', 'set', 'clear', 'inc', 'iseq', 'isset', 'sleep', 'goto', 'chain', 'kernel', 'initrd', 'imgfetch', 'imgexec',
  'imgload', 'imgselect', 'module', 'boot', 'sanboot', 'sanhook', 'menu', 'item', 'choose', 'prompt', 'dhcp', 'ifopen', 'reboot',
  'poweroff', 'shell', 'show', 'login', 'cpuid', 'params', 'param', 'imgfree', 'ntp',
]);

export function lintIpxeScript(script: string): string[] {
  const problems: string[] = [];
  const lines = script.split('\n');
  if (!/^#!ipxe\s*$/.test(lines[0] ?? '')) problems.push('line 1: the script does not start with #!ipxe');
  const labels = new Set<string>();
  for (const line of lines) {
    const match = /^\s*:(\S+)/.exec(line);
    if (match) labels.add(match[1]!);
  }
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (index === 0 || line === '' || line.startsWith('#') || line.startsWith(':')) return;
    // A token starting with # starts a comment; &&, || and ; separate commands.
    const tokens = line.split(/\s+/);
    const commentAt = tokens.findIndex((token) => token.startsWith('#'));
    const active = commentAt >= 0 ? tokens.slice(0, commentAt) : tokens;
    let command: string[] = [];
    const commands: string[][] = [];
    for (const token of active) {
      if (token === '&&' || token === '||' || token === ';') {
        commands.push(command);
        command = [];
      } else command.push(token);
    }
    commands.push(command);
    for (const words of commands) {
      const [name, ...args] = words;
      if (name === undefined) continue;
      if (!KNOWN_COMMANDS.has(name)) problems.push(`line ${index + 1}: unknown command "${name}"`);
      if (name === 'goto' && args[0] && !args[0].includes('${') && !labels.has(args[0])) problems.push(`line ${index + 1}: goto ${args[0]} has no label`);
      if (name === 'item' && args[0] && !args[0].startsWith('-') && !labels.has(args[0])) problems.push(`line ${index + 1}: menu item ${args[0]} has no label`);
      if (name === 'choose') {
        const defaultIndex = args.indexOf('--default');
        const target = defaultIndex >= 0 ? args[defaultIndex + 1] : undefined;
        if (target && !labels.has(target)) problems.push(`line ${index + 1}: choose --default ${target} has no label`);
      }
    }
  });
  return problems;
}
