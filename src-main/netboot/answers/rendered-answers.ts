import type { RenderedAnswer } from '../netboot-ports.js';

/** How many rendered answers are kept (a few KB each): a 200-machine boot storm several times over. */
const MAX_ENTRIES = 1024;

/**
 * Rendered answer files by everything that goes into them (template and its
 * version, kind, the whole answer context), so a machine that fetches its
 * answer after its boot script was served — which renders it ahead, see
 * TaskRuntime.prerender — gets it without waiting for the template worker,
 * and 200 installers asking at once do not queue 200 renders. Any template
 * write clears it (secrets change without a new version). Concurrent
 * requests for the same answer share one render; a failed render is not kept.
 */
export class RenderedAnswers {
  private readonly entries = new Map<string, Promise<RenderedAnswer>>();

  get(key: string, render: () => Promise<RenderedAnswer>): Promise<RenderedAnswer> {
    const kept = this.entries.get(key);
    if (kept) return kept;
    const pending = render();
    this.entries.set(key, pending);
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    return pending;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
