import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_LIMITS, TemplateEngine, TemplateError } from '../../../src-main/templates/template-engine.js';
import { tempDir } from '../../helpers/test-core.js';

const engine = new TemplateEngine();
const data = { host: { mac: '52:54:00:12:34:56', hostname: 'node1', tags: ['a', 'b'] }, variables: { release: 'bookworm' } };

function renderError(source: string, values: Record<string, unknown> = data): TemplateError {
  try {
    engine.render(source, values);
  } catch (err) {
    expect(err).toBeInstanceOf(TemplateError);
    return err as TemplateError;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}

describe('template engine: rendering', () => {
  it('renders variables, filters, conditions and loops', () => {
    const out = engine.render(
      '{{ host.hostname | upcase }} {{ variables.release }} {{ host.mac | url_encode }}{% for t in host.tags %} {{ t }}{% endfor %}{% if host.missing %}x{% endif %} {{ host.missing | default: "none" }}',
      data,
    );
    expect(out).toBe('NODE1 bookworm 52%3A54%3A00%3A12%3A34%3A56 a b none');
  });

  it('keeps iPXE ${…} settings untouched', () => {
    expect(engine.render('chain http://x/?mac=${mac:uristring}&h={{ host.hostname }}', data)).toBe('chain http://x/?mac=${mac:uristring}&h=node1');
  });

  it('reports parse errors with their line and column', () => {
    const unclosed = renderError('#!ipxe\necho a\n{% if host.mac %}\necho b\n');
    expect(unclosed.line).toBe(3);
    expect(unclosed.message).toMatch(/^line 3: tag \{% if host\.mac %\} not closed/);
    const filter = renderError('#!ipxe\n\n  {{ host.mac | shout }}');
    expect(filter.line).toBe(3);
    expect(filter.column).toBe(3);
    expect(filter.message).toContain('shout');
  });
});

describe('template engine: sandbox', () => {
  let dir: { dir: string; remove: () => Promise<void> };
  let secret: string;

  beforeAll(async () => {
    dir = await tempDir('bootwright-sandbox-');
    secret = path.join(dir.dir, 'secret.liquid');
    await writeFile(secret, 'TOP-SECRET');
  });
  afterAll(async () => dir.remove());

  it('reads no files: include, render and layout are refused at parse time, whatever the name', () => {
    for (const source of [
      `{% include '${secret}' %}`,
      `{% render '${secret}' %}`,
      `{% layout '${secret}' %}`,
      "{% include '/etc/passwd' %}",
      "{% include 'package.json' %}",
      '{% include host.hostname %}',
      "{%- render '../../etc/hosts' -%}",
      "{% liquid\ninclude '/etc/passwd' %}",
    ]) {
      const err = renderError(source);
      expect(err.message, source).toContain('is not available in boot scripts');
      expect(err.message).not.toContain('TOP-SECRET');
    }
  });

  it('runs no code: no prototypes, no constructors, no functions from the data', () => {
    const out = engine.render(
      '[{{ host.constructor }}][{{ host.mac.constructor }}][{{ host.toString }}][{{ host.__proto__ }}][{{ host.tags.constructor.name }}][{{ host.hasOwnProperty }}][{{ fn }}]',
      { ...data, fn: () => 'CALLED' },
    );
    expect(out).toBe('[][][][][][][]');
    // Liquid has no syntax to call anything; JavaScript in a template is just text.
    expect(engine.render("{{ 'x' }}<script>process.exit(1)</script>{{ 1 | plus: 1 }}", data)).toBe('x<script>process.exit(1)</script>2');
  });

  it('bounds the output size', () => {
    // Little work, large output: only the output bound can stop it.
    const err = renderError('{{ big }}{{ big }}', { big: 'x'.repeat(600_000) });
    expect(err.message).toContain(`larger than ${TEMPLATE_LIMITS.maxOutputBytes} bytes`);
  });

  it('bounds the render time between nodes (LiquidJS renderLimit)', () => {
    const err = renderError('{% for i in (1..5000) %}{% for j in (1..5000) %}{{ j }}{% endfor %}{% endfor %}');
    expect(err.message).toContain(`render exceeded ${TEMPLATE_LIMITS.renderMs} ms`);
  });

  it('refuses a huge range before building it, and charges the filters that walk arrays', () => {
    // 3 million elements: more than the memory budget, refused before the range exists.
    expect(renderError('{{ (1..3000000) | has_exp: "i", "i == 0" }}').message).toContain('memory alloc limit exceeded');
    // The range alone fits; has_exp walking it once more does not (it charged nothing in LiquidJS).
    const half = Math.ceil(TEMPLATE_LIMITS.memory / 2) + 1;
    for (const filter of ['has_exp: "i", "i == 0"', 'find_exp: "i", "i == 0"', 'has: "x", 0', 'sum']) {
      expect(renderError(`{{ (1..${half}) | ${filter} }}`).message, filter).toContain('memory alloc limit exceeded');
    }
    // Small arrays still work as documented.
    expect(engine.render('{{ host.tags | has_exp: "t", "t == \'b\'" }} {{ (1..4) | sum }}', data)).toBe('true 10');
  });

  it('stops a growing output as soon as it passes the bound', () => {
    const loop = `{% assign s = "${'x'.repeat(100)}" %}{% for i in (1..200000) %}{{ s }}{% endfor %}`;
    expect(renderError(loop).message).toContain(`larger than ${TEMPLATE_LIMITS.maxOutputBytes} bytes`);
  });

  it('refuses deep nesting with an error, not a crash', () => {
    expect(renderError('{%if a%}'.repeat(3500) + '{%endif%}'.repeat(3500)).message).toContain('Maximum call stack size exceeded');
  });

  it('bounds allocations', () => {
    expect(renderError('{% for i in (1..100000000) %}{% endfor %}').message).toContain('memory alloc limit exceeded');
    const doubling = '{% assign s = "x" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}';
    expect(renderError(doubling).message).toContain('memory alloc limit exceeded');
  });

  it('bounds the source size', () => {
    const err = renderError(`#!ipxe\n${'#'.repeat(TEMPLATE_LIMITS.maxSourceChars)}`);
    expect(err.message).toContain(`longer than ${TEMPLATE_LIMITS.maxSourceChars} characters`);
  });

  it('stays usable after a refused template', () => {
    renderError('{% for i in (1..100000000) %}{% endfor %}');
    expect(engine.render('{{ host.hostname }}', data)).toBe('node1');
  });
});
