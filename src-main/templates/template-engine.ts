import {
  Context,
  filters as builtinFilters,
  Liquid,
  LiquidError,
  Tag,
  toValue,
  toValueSync,
  type Emitter,
  type FilterImplOptions,
  type Template,
  type TagToken,
  type TopLevelToken,
} from 'liquidjs';
import { MAX_TEMPLATE_CHARS } from './templates-contract.js';

/**
 * Bounds of one template: what an operator may save and what a render may
 * cost. A boot script is a few dozen lines; these leave ample room while
 * keeping a hostile or buggy template from stalling the server. User
 * templates render in a worker thread (template-renderer.ts), which adds the
 * hard bound `killAfterMs`; the others are LiquidJS's own and end a render
 * with a clean error without losing the worker.
 */
export const TEMPLATE_LIMITS = {
  /** Characters of template source (LiquidJS parseLimit, and checked before parsing). */
  maxSourceChars: MAX_TEMPLATE_CHARS,
  /** Bytes of rendered output; checked as the output grows, so a huge output stops early. */
  maxOutputBytes: 1024 * 1024,
  /**
   * LiquidJS renderLimit: wall time of one render. LiquidJS checks it only
   * between nodes (a tag, an output, a loop iteration), so one filter call
   * can overrun it; `killAfterMs` catches those.
   */
  renderMs: 200,
  /**
   * LiquidJS memoryLimit, counted per render: range elements, array and
   * string building, and here also the elements the search filters (has,
   * find, sum…) walk. `(1..3000000)` is refused before the range exists.
   */
  memory: 1_000_000,
  /**
   * Wall time after which the worker running a render or parse is terminated
   * and replaced; the caller gets "render exceeded N ms".
   */
  killAfterMs: 500,
} as const;

/** Parsed templates kept for the hot path (a boot renders the same few templates again and again). */
const PARSE_CACHE_ENTRIES = 128;

/** A template that does not parse or render; `line` is 1-based, null when the error has no position. */
export class TemplateError extends Error {
  /** The message without the "line N:" prefix (what crosses from the worker). */
  readonly reason: string;
  readonly line: number | null;
  readonly column: number | null;

  constructor(reason: string, line: number | null = null, column: number | null = null) {
    super(line === null ? reason : `line ${line}: ${reason}`);
    this.name = 'TemplateError';
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
}

/** Values a template can see: plain JSON data only (no functions, no class instances). */
export type TemplateData = Record<string, unknown>;

/** Tags that would read other templates; boot scripts are self-contained, so they are refused at parse time. */
const DISABLED_TAGS = ['include', 'render', 'layout'] as const;

/**
 * Built-in filters that walk an array without charging LiquidJS's memory
 * budget: `(1..3000000) | has_exp: …` ran 5 s in one call, and a nested
 * has_exp is quadratic. Charging one unit per element makes both hit the
 * memory limit at once instead.
 */
const WALKING_FILTERS = ['has', 'has_exp', 'find', 'find_exp', 'find_index', 'find_index_exp', 'sum'] as const;

/** The engine's message for LiquidJS's renderLimit. */
const RENDER_LIMIT_MESSAGE = 'template render limit exceeded';

/**
 * The sandboxed template engine of boot scripts (LiquidJS). Liquid has no
 * way to run code; on top of that:
 * - no template lookup at all: the partial map is empty and the tags that
 *   would use it fail at parse time, so nothing can reach the file system;
 * - the data is a JSON copy (no functions to call) and only its own
 *   properties are visible (no `constructor`, no prototypes);
 * - unknown filters are errors (a typo fails at save, not silently at boot);
 * - source size, render time, allocations and output size are bounded
 *   (TEMPLATE_LIMITS).
 * This class renders synchronously in the calling thread: user templates go
 * through TemplateRenderer, which runs it in a worker it can kill.
 */
export class TemplateEngine {
  private readonly liquid: Liquid;
  private readonly parsed = new Map<string, Template[]>();

  constructor() {
    this.liquid = new Liquid({
      templates: {},
      relativeReference: false,
      strictFilters: true,
      strictVariables: false,
      ownPropertyOnly: true,
      jsTruthy: false,
      cache: false,
      parseLimit: TEMPLATE_LIMITS.maxSourceChars,
      renderLimit: TEMPLATE_LIMITS.renderMs,
      memoryLimit: TEMPLATE_LIMITS.memory,
      // Dates in scripts are the server's UTC, whatever the machine's zone.
      timezoneOffset: 0,
    });
    for (const name of DISABLED_TAGS) this.liquid.registerTag(name, DisabledTag);
    for (const name of WALKING_FILTERS) this.liquid.registerFilter(name, chargingFilter(name));
  }

  /** Throws a TemplateError when `source` does not parse. */
  parse(source: string): Template[] {
    const cached = this.parsed.get(source);
    if (cached) {
      // Refresh its place: the map's order is the eviction order.
      this.parsed.delete(source);
      this.parsed.set(source, cached);
      return cached;
    }
    if (source.length > TEMPLATE_LIMITS.maxSourceChars) {
      throw new TemplateError(`the template is longer than ${TEMPLATE_LIMITS.maxSourceChars} characters`);
    }
    let templates: Template[];
    try {
      templates = this.liquid.parse(source);
    } catch (err) {
      throw toTemplateError(err);
    }
    this.parsed.set(source, templates);
    if (this.parsed.size > PARSE_CACHE_ENTRIES) {
      const oldest = this.parsed.keys().next();
      if (!oldest.done) this.parsed.delete(oldest.value);
    }
    return templates;
  }

  /** Renders `source` with `data`; throws a TemplateError for any parse or render failure or exceeded bound. */
  render(source: string, data: TemplateData): string {
    const templates = this.parse(source);
    const emitter = new BoundedEmitter(TEMPLATE_LIMITS.maxOutputBytes);
    try {
      // LiquidJS calls functions it finds in the data; a JSON copy guarantees there are none.
      const plain = JSON.parse(JSON.stringify(data)) as TemplateData;
      // renderSync with our own emitter (LiquidJS's would grow the output unbounded until the end).
      const ctx = new Context(plain, this.liquid.options, { sync: true }, { liquid: this.liquid });
      toValueSync(this.liquid.renderer.renderTemplates(templates, ctx, emitter));
    } catch (err) {
      throw toTemplateError(err);
    }
    if (Buffer.byteLength(emitter.buffer, 'utf8') > TEMPLATE_LIMITS.maxOutputBytes) throw outputTooLarge();
    return emitter.buffer;
  }
}

/**
 * The output of one render, refused as soon as it passes the bound: loops
 * over large strings would otherwise build hundreds of megabytes before the
 * final size check. (Characters are counted while writing, bytes at the end.)
 */
class BoundedEmitter implements Emitter {
  buffer = '';
  private readonly maxChars: number;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
  }

  write(html: unknown): void {
    const text = outputText(html);
    if (this.buffer.length + text.length > this.maxChars) throw outputTooLarge();
    this.buffer += text;
  }
}

function outputTooLarge(): TemplateError {
  return new TemplateError(`the rendered script is larger than ${TEMPLATE_LIMITS.maxOutputBytes} bytes`);
}

/** How LiquidJS's own emitter turns a value into output text (its `stringify` is not exported). */
function outputText(value: unknown): string {
  const plain: unknown = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(outputText).join('');
  return String(plain);
}

type FilterHandler = Extract<FilterImplOptions, (...args: never[]) => unknown>;

/** The built-in filter `name`, charging the memory budget one unit per element it will walk. */
function chargingFilter(name: string): FilterHandler {
  const filter = builtinFilters[name];
  if (typeof filter !== 'function') throw new Error(`LiquidJS has no plain filter "${name}" to wrap`);
  return function (this: ThisParameterType<FilterHandler>, value: unknown, ...args: unknown[]): unknown {
    const plain: unknown = toValue(value);
    this.context.memoryLimit.use(Array.isArray(plain) || typeof plain === 'string' ? plain.length : 1);
    return filter.call(this, value, ...args) as unknown;
  };
}

class DisabledTag extends Tag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    throw new Error(`{% ${token.name} %} is not available in boot scripts (templates cannot read other files)`);
  }

  *render(_ctx: Context, _emitter: Emitter): Generator<unknown, void, unknown> {
    // Never reached: the constructor refuses the tag at parse time.
  }
}

/** LiquidJS appends ", line:N, col:M" to its messages; the position becomes fields and a "line N:" prefix. */
function toTemplateError(err: unknown): TemplateError {
  if (err instanceof TemplateError) return err;
  if (LiquidError.is(err)) {
    // A LiquidError built without a token (rare internal paths) has no position.
    const position = (err.token as LiquidError['token'] | undefined)?.getPosition();
    const cause = err.originalError;
    if (cause instanceof TemplateError) return new TemplateError(cause.reason, position?.[0] ?? null, position?.[1] ?? null);
    let message = err.message.replace(/, line:\d+, col:\d+$/, '');
    if (message === RENDER_LIMIT_MESSAGE) message = `render exceeded ${TEMPLATE_LIMITS.renderMs} ms`;
    return new TemplateError(message, position?.[0] ?? null, position?.[1] ?? null);
  }
  return new TemplateError(err instanceof Error ? err.message : String(err));
}
