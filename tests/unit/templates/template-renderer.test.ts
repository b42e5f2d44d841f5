import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import type { Logger } from '../../../src-main/core/logger.js';
import { TEMPLATE_LIMITS, TemplateError } from '../../../src-main/templates/template-engine.js';
import { WorkerTemplateRenderer } from '../../../src-main/templates/template-renderer.js';

/** A logger that keeps its warnings (the renderer says when it kills a worker). */
function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const log: Logger & { warnings: string[] } = {
    warnings,
    error: () => undefined,
    warn: (message) => warnings.push(message),
    info: () => undefined,
    debug: () => undefined,
    scope: () => log,
  };
  return log;
}

const log = recordingLog();
const renderer = new WorkerTemplateRenderer({ log });
afterAll(async () => renderer.close());

const data = { host: { hostname: 'node1' }, client: { serial: 'boom' } };
const KILLED = `render exceeded ${TEMPLATE_LIMITS.killAfterMs} ms`;

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the render to fail');
}

/** Runs `source`, expects a TemplateError matching `expected`, then checks a normal render still works. */
async function expectRefused(source: string, expected: string | RegExp): Promise<void> {
  const started = performance.now();
  const err = await failure(renderer.render(source, data));
  const ms = performance.now() - started;
  expect(err, err.message).toBeInstanceOf(TemplateError);
  if (typeof expected === 'string') expect(err.message).toContain(expected);
  else expect(err.message).toMatch(expected);
  console.log(`refused in ${ms.toFixed(0)} ms: ${err.message}`);
  expect(await renderer.render('#!ipxe\necho {{ host.hostname }}', data)).toBe('#!ipxe\necho node1');
}

describe('the template worker: hostile templates end in a TemplateError and the next render works', () => {
  it('renders, and reports template errors with their position', async () => {
    expect(await renderer.render('{{ host.hostname | upcase }}', data)).toBe('NODE1');
    const err = await failure(renderer.render('#!ipxe\n{{ host.hostname | shout }}', data));
    expect(err).toBeInstanceOf(TemplateError);
    expect((err as TemplateError).line).toBe(2);
    expect(err.message).toMatch(/^line 2: .*shout/);
    await renderer.check('{% if a %}x{% endif %}');
    expect(await failure(renderer.check('{% if a %}'))).toBeInstanceOf(TemplateError);
  });

  it('a huge range under has_exp: refused by the memory budget before it is built', async () => {
    await expectRefused('{{ (1..3000000) | has_exp: "i", "i == 0" }}', 'memory alloc limit exceeded');
  });

  it('one filter call that fits the memory budget but runs for seconds: the worker is killed and replaced', async () => {
    const killsBefore = log.warnings.length;
    await expectRefused('{{ (1..450000) | has_exp: "i", "i == 0" }}', KILLED);
    expect(log.warnings.length).toBe(killsBefore + 1);
    expect(log.warnings.at(-1)).toContain('terminated');
  });

  it('nested has_exp (quadratic) only for one serial: killed', async () => {
    const nested = `{% if client.serial == "boom" %}{% assign a = (1..1500) %}{{ a | has_exp: "i", "a | has_exp: 'j', 'j == 0'" }}{% endif %}`;
    await expectRefused(nested, KILLED);
  });

  it('nested loops: stopped by the render time limit between nodes', async () => {
    await expectRefused(`${'{% for i in (1..50) %}'.repeat(8)}x${'{% endfor %}'.repeat(8)}`, `render exceeded ${TEMPLATE_LIMITS.renderMs} ms`);
  });

  it('deep recursion through nested for tags: refused', async () => {
    // 2^2000 iterations 2000 frames deep: the stack or the time limit ends it (a worker's stack is larger than the main thread's).
    await expectRefused(`${'{%for i in (1..2)%}'.repeat(2000)}x${'{%endfor%}'.repeat(2000)}`, /Maximum call stack size exceeded|render exceeded/);
  });

  it('a huge output: stopped at the output bound', async () => {
    await expectRefused(`{% assign s = "${'x'.repeat(100)}" %}{% for i in (1..200000) %}{{ s }}{% endfor %}`, `larger than ${TEMPLATE_LIMITS.maxOutputBytes} bytes`);
  });

  it('parse bombs: deep nesting, unclosed tags, too long', async () => {
    await expectRefused(`{{ ${'('.repeat(30000)}a${')'.repeat(30000)} }}`, /Maximum call stack size exceeded|not closed|invalid/);
    await expectRefused(`{% liquid\n${'if a\n'.repeat(10000)} %}`, /Maximum call stack size exceeded|not closed/);
    await expectRefused('{{'.repeat(32000), 'not closed');
    await expectRefused('x'.repeat(TEMPLATE_LIMITS.maxSourceChars + 1), `longer than ${TEMPLATE_LIMITS.maxSourceChars} characters`);
    const err = await failure(renderer.check('{%if a%}'.repeat(8000)));
    expect(err).toBeInstanceOf(TemplateError);
  });

  it('a parse that runs over the budget is killed like a render', async () => {
    const slowParse = new WorkerTemplateRenderer({ log: recordingLog(), killAfterMs: 1 });
    try {
      // 1 ms cannot even cover a 58 KB parse: the job is killed, whatever the template.
      const source = '{% case a %}' + '{% when 1 %}x'.repeat(4500) + '{% endcase %}';
      const err = await failure(slowParse.check(source));
      expect(err).toBeInstanceOf(TemplateError);
      expect(err.message).toBe('parse exceeded 1 ms (stopped)');
    } finally {
      await slowParse.close();
    }
  });
});

describe('the template worker: a bounded queue', () => {
  it('refuses work beyond the queue with 503 UNAVAILABLE, then serves again', async () => {
    const small = new WorkerTemplateRenderer({ log: recordingLog(), maxQueued: 2 });
    try {
      const slow = '{{ (1..450000) | has_exp: "i", "i == 0" }}';
      const jobs = [small.render(slow, {}), small.render(slow, {}), small.render(slow, {})].map((job) => failure(job));
      const refused = await failure(small.render('{{ 1 }}', {}));
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('UNAVAILABLE');
      expect(refused.message).toContain('busy');
      // The waiting ones all end (killed, each in a fresh worker): nothing waits forever.
      for (const err of await Promise.all(jobs)) {
        if (err instanceof AppError) expect(err.code).toBe('UNAVAILABLE');
        else expect(err.message).toContain(KILLED);
      }
      expect(small.queued).toBe(0);
      expect(await small.render('{{ 2 | plus: 2 }}', {})).toBe('4');
    } finally {
      await small.close();
    }
  });

  it('queues a storm of cheap renders (200 machines at once) and serves every one', async () => {
    const pool = new WorkerTemplateRenderer({ log: recordingLog() });
    try {
      const outputs = await Promise.all(Array.from({ length: 200 }, (_unused, index) => pool.render('kernel x hostname={{ host }}', { host: `node-${index}` })));
      expect(outputs).toEqual(Array.from({ length: 200 }, (_unused, index) => `kernel x hostname=node-${index}`));
    } finally {
      await pool.close();
    }
  });

  it('refuses by the wait it would mean: after renders that ran into the kill timer, a short queue is already too long', async () => {
    const pool = new WorkerTemplateRenderer({ log: recordingLog(), killAfterMs: 200, maxWaitMs: 300 });
    try {
      const slow = '{{ (1..450000) | has_exp: "i", "i == 0" }}';
      // Each slow job is killed at 200 ms: the pool learns that jobs cost about that much now.
      for (let round = 0; round < 4; round += 1) expect((await failure(pool.render(slow, {}))).message).toContain('exceeded 200 ms');
      const waiting = [pool.render(slow, {}), pool.render(slow, {}), pool.render(slow, {}), pool.render(slow, {})].map((job) => failure(job));
      const refused = await failure(pool.render('{{ 1 }}', {}));
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('UNAVAILABLE');
      expect(refused.message).toMatch(/busy \(\d+ renders waiting, about \d+ ms\)/);
      await Promise.all(waiting);
    } finally {
      await pool.close();
    }
  });

  it('fails pending work when closed and refuses new work', async () => {
    const closing = new WorkerTemplateRenderer({ log: recordingLog() });
    const pending = failure(closing.render('{{ (1..450000) | has_exp: "i", "i == 0" }}', {}));
    await closing.close();
    const err = await pending;
    expect(err).toBeInstanceOf(AppError);
    expect((await failure(closing.render('{{ 1 }}', {}))).message).toContain('stopped');
  });
});
