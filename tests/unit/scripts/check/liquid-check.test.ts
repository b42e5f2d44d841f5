import { describe, expect, it } from 'vitest';
import { renderForCheck, undeclaredVariables } from '../../../../src-main/scripts/check/liquid-check.js';
import { TemplateEngine, TemplateError } from '../../../../src-main/templates/index.js';

/** The sandboxed engine run in this thread (the area runs it in its worker). */
const engine = new TemplateEngine();
const templates = { render: async (source: string, data: Record<string, unknown>) => engine.render(source, data) };

describe('undeclaredVariables', () => {
  it('names each undeclared root once, at its first line', () => {
    const issues = undeclaredVariables('echo {{ a }}\necho {{ b.c | default: d }}\necho {{ b }}\n', { a: '1' });
    expect(issues.map((issue) => [issue.line, issue.message.split('"')[1]])).toEqual([
      [2, 'b'],
      [2, 'd'],
    ]);
  });

  it('knows host, server, template-made names, keywords, strings and properties', () => {
    const content = [
      '{% assign n = host.hostname | upcase %}{{ n }} {{ server.base_url }}',
      '{% for p in pkgs %}{{ p }} {{ forloop.index }}{% endfor %}',
      '{% capture msg %}x{% endcapture %}{{ msg }}',
      '{% if mode == "fast" and retries > 0 or x contains "y" %}{% endif %}',
      '{{ "literal word" | append: "other" }} {{ list.size }} {{ a["key"] }}',
      '{% raw %}{{ not_a_var }}{% endraw %}{% comment %}{{ nor_this }}{% endcomment %}',
      '{{ value | default: true | replace: "a", suffix }}',
    ].join('\n');
    const names = undeclaredVariables(content, { pkgs: '', mode: '', retries: '', x: '', list: '', a: '', value: '' }).map((issue) => issue.message.split('"')[1]);
    expect(names).toEqual(['suffix']);
  });
});

describe('renderForCheck', () => {
  it('uses text without markup as is and never calls the renderer', async () => {
    const never = { render: async (): Promise<string> => { throw new Error('rendered'); } };
    expect(await renderForCheck(never, 'echo "${HOME}"\n', {})).toEqual({ text: 'echo "${HOME}"\n', issues: [] });
  });

  it('renders with the declared defaults and the sample machine', async () => {
    const outcome = await renderForCheck(templates, 'echo {{ who }} on {{ host.hostname }}\n', { who: 'me' });
    expect(outcome).toEqual({ text: 'echo me on sample-host\n', issues: [] });
  });

  it('turns a template error into an issue with its line', async () => {
    const outcome = await renderForCheck(templates, 'a\n{{ x | nosuchfilter }}\n', { x: '' });
    expect(outcome.text).toBeNull();
    expect(outcome.issues[0]).toMatchObject({ severity: 'error', line: 2, message: expect.stringContaining('Liquid') });
  });

  it('lets a renderer failure that is not about the template through (a busy worker is a 503)', async () => {
    const busy = { render: async (): Promise<string> => { throw new Error('queue full'); } };
    await expect(renderForCheck(busy, '{{ a }}', { a: '' })).rejects.toThrow('queue full');
    const broken = { render: async (): Promise<string> => { throw new TemplateError('bad', 3); } };
    expect((await renderForCheck(broken, '{{ a }}', { a: '' })).issues[0]).toMatchObject({ line: 3 });
  });
});
