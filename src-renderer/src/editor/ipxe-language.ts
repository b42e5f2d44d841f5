import { HighlightStyle, StreamLanguage, type StringStream } from '@codemirror/language';
import { tags } from '@lezer/highlight';

/** iPXE commands (https://ipxe.org/cmd) highlighted as keywords when they start a line. */
const COMMANDS = new Set([
  'boot', 'chain', 'choose', 'clear', 'colour', 'console', 'cpair', 'dhcp', 'echo', 'exit', 'goto', 'ifclose', 'ifconf', 'ifopen',
  'ifstat', 'imgexec', 'imgfetch', 'imgfree', 'imgload', 'imgselect', 'imgstat', 'imgtrust', 'imgverify', 'initrd', 'inc', 'isset',
  'iseq', 'item', 'kernel', 'login', 'menu', 'module', 'ntp', 'param', 'params', 'ping', 'prompt', 'read', 'reboot', 'route', 'sanboot',
  'sanhook', 'sanunhook', 'set', 'shell', 'show', 'sleep', 'sync', 'poweroff', 'cpuid', 'nslookup', 'vcreate', 'vdestroy',
]);

interface IpxeState {
  /** Inside `{{ … }}` or `{% … %}` (Liquid), which may span lines. */
  liquid: 'output' | 'tag' | null;
  /** No command seen yet on this line. */
  lineStart: boolean;
}

/**
 * iPXE scripts with Liquid template syntax (Bootwright's profile and entry
 * scripts): `#!ipxe`, comments, commands, `:labels`, `--options`,
 * `${settings}` (expanded by iPXE) and `{{ … }}` / `{% … %}` (expanded by
 * Bootwright before the script is served).
 */
export const ipxeLiquid = StreamLanguage.define<IpxeState>({
  name: 'ipxe-liquid',
  startState: () => ({ liquid: null, lineStart: true }),
  token(stream: StringStream, state: IpxeState): string | null {
    if (stream.sol()) state.lineStart = true;
    if (state.liquid) {
      const close = state.liquid === 'output' ? '}}' : '%}';
      if (stream.match(state.liquid === 'output' ? /^-?\}\}/ : /^-?%\}/)) {
        state.liquid = null;
        return 'meta';
      }
      if (stream.match(/^"[^"]*"|^'[^']*'/)) return 'string';
      if (stream.match(/^\d+(\.\d+)?/)) return 'number';
      if (stream.match(/^\|/)) return 'operator';
      if (stream.match(/^[A-Za-z_][\w.]*/)) return state.liquid === 'tag' ? 'keyword' : 'variableName.special';
      stream.next();
      if (stream.current().endsWith(close[0]!)) return 'meta';
      return null;
    }
    if (stream.eatSpace()) return null;
    if (stream.match(/^\{\{-?/)) {
      state.liquid = 'output';
      return 'meta';
    }
    if (stream.match(/^\{%-?/)) {
      state.liquid = 'tag';
      return 'meta';
    }
    if (stream.sol() && stream.match(/^#!ipxe/)) {
      state.lineStart = false;
      return 'meta';
    }
    if (stream.peek() === '#' && state.lineStart) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^\$\{[^}]*\}/)) return 'variableName';
    if (state.lineStart && stream.match(/^:[\w-]+/)) {
      state.lineStart = false;
      return 'labelName';
    }
    if (stream.match(/^--?[A-Za-z][\w-]*/)) return 'propertyName';
    if (stream.match(/^(\|\||&&)/)) {
      state.lineStart = true;
      return 'operator';
    }
    if (stream.match(/^[A-Za-z_][\w-]*/)) {
      const word = stream.current();
      const wasStart = state.lineStart;
      state.lineStart = false;
      return wasStart && COMMANDS.has(word) ? 'keyword' : null;
    }
    if (stream.match(/^\d+/)) return 'number';
    stream.next();
    state.lineStart = false;
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
});

export const lightHighlight = HighlightStyle.define([
  { tag: tags.keyword, color: '#0550ae', fontWeight: '600' },
  { tag: tags.comment, color: '#6e7781', fontStyle: 'italic' },
  { tag: tags.meta, color: '#8250df' },
  { tag: tags.special(tags.variableName), color: '#8250df' },
  { tag: tags.variableName, color: '#953800' },
  { tag: tags.labelName, color: '#116329', fontWeight: '600' },
  { tag: tags.propertyName, color: '#0a3069' },
  { tag: tags.string, color: '#0a3069' },
  { tag: tags.number, color: '#0550ae' },
  { tag: tags.operator, color: '#cf222e' },
]);

export const darkHighlight = HighlightStyle.define([
  { tag: tags.keyword, color: '#79c0ff', fontWeight: '600' },
  { tag: tags.comment, color: '#8b949e', fontStyle: 'italic' },
  { tag: tags.meta, color: '#d2a8ff' },
  { tag: tags.special(tags.variableName), color: '#d2a8ff' },
  { tag: tags.variableName, color: '#ffa657' },
  { tag: tags.labelName, color: '#7ee787', fontWeight: '600' },
  { tag: tags.propertyName, color: '#a5d6ff' },
  { tag: tags.string, color: '#a5d6ff' },
  { tag: tags.number, color: '#79c0ff' },
  { tag: tags.operator, color: '#ff7b72' },
]);
