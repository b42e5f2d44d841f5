import { Liquid, LiquidError, Tag, type Emitter, type Context, type Template, type TagToken, type TopLevelToken } from 'liquidjs';

/**
 * Bounds of one template: what an operator may save and what a render may
 * cost. A boot script is a few dozen lines; these leave ample room while
 * keeping a hostile or buggy template from stalling the server.
 */
export const TEMPLATE_LIMITS = {
  /** Characters of template source. */
  maxSourceChars: 64 * 1024,
  /** Bytes of rendered output. */
  maxOutputBytes: 1024 * 1024,
  /** Wall time of one render; the render is synchronous, so this is also the longest the event loop can be held. */
  renderMs: 200,
  /** LiquidJS's allocation budget (ranges, array and string building). */
  memory: 10_000_000,
  /** Tag, output and text nodes rendered in one call. */
  nodeRenders: 200_000,
} as const;

/** Parsed templates kept for the hot path (a boot renders the same few templates again and again). */
const PARSE_CACHE_ENTRIES = 128;

/** A template that does not parse or render; `line` is 1-based, null when the error has no position. */
export class TemplateError extends Error {
  readonly line: number | null;
  readonly column: number | null;

  constructor(message: string, line: number | null = null, column: number | null = null) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'TemplateError';
    this.line = line;
    this.column = column;
  }
}

/** Values a template can see: plain JSON data only (no functions, no class instances). */
export type TemplateData = Record<string, unknown>;

/** Tags that would read other templates; boot scripts are self-contained, so they are refused at parse time. */
const DISABLED_TAGS = ['include', 'render', 'layout'] as const;

/**
 * The sandboxed template engine of boot scripts (LiquidJS). Liquid has no
 * way to run code; on top of that:
 * - no template lookup at all: the partial map is empty and the tags that
 *   would use it fail at parse time, so nothing can reach the file system;
 * - the data is a JSON copy (no functions to call) and only its own
 *   properties are visible (no `constructor`, no prototypes);
 * - unknown filters are errors (a typo fails at save, not silently at boot);
 * - source size, render time, allocations, node count and output size are bounded.
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
    let output: unknown;
    try {
      // LiquidJS calls functions it finds in the data; a JSON copy guarantees there are none.
      const plain = JSON.parse(JSON.stringify(data)) as TemplateData;
      output = this.liquid.renderSync(templates, plain, {
        renderLimit: TEMPLATE_LIMITS.renderMs,
        memoryLimit: TEMPLATE_LIMITS.memory,
        templateLimit: TEMPLATE_LIMITS.nodeRenders,
      });
    } catch (err) {
      throw toTemplateError(err);
    }
    const text = typeof output === 'string' ? output : String(output);
    if (Buffer.byteLength(text, 'utf8') > TEMPLATE_LIMITS.maxOutputBytes) {
      throw new TemplateError(`the rendered script is larger than ${TEMPLATE_LIMITS.maxOutputBytes} bytes`);
    }
    return text;
  }
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
    const message = err.message.replace(/, line:\d+, col:\d+$/, '');
    return new TemplateError(message, position?.[0] ?? null, position?.[1] ?? null);
  }
  return new TemplateError(err instanceof Error ? err.message : String(err));
}
