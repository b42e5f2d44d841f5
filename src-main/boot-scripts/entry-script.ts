import { nowIso } from '../core/time.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import type { EntryScriptView } from './boot-scripts-contract.js';
import { IDENTITY_QUERY, normalizeScriptText } from '../profiles/ipxe-syntax.js';
import { assertRenderableScript } from '../profiles/script-check.js';
import { sampleEntryData } from '../profiles/template-context.js';
import { TemplateEngine, type TemplateData } from '../templates/template-engine.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';

/** Attempts of the default entry script before it gives up and lets the firmware try the next boot device. */
export const ENTRY_MAX_ATTEMPTS = 60;
export const ENTRY_RETRY_SECONDS = 5;

/**
 * The built-in entry script template. iPXE runs it first; it identifies the
 * machine through iPXE settings and chains to the machine's own script,
 * retrying while that fails (server not reachable yet, a profile that does
 * not render, a kernel that does not download). A per-host script that ends
 * with `exit 0` (local disk, access denied) ends the loop: `exit 0` here
 * hands the machine back to its firmware. `{{ … }}` is filled in by
 * Bootwright per client; `${…}` is expanded by iPXE on the machine.
 */
export const DEFAULT_ENTRY_TEMPLATE = `#!ipxe
# Bootwright entry script: identifies this machine and chains to its own boot script.
# Double-brace expressions are filled in by Bootwright per client; \${...} is expanded by iPXE.
set bw-script {{ server.script_url }}?${IDENTITY_QUERY}
set bw-try:int32 0
:bw-fetch
chain --autofree \${bw-script} && exit 0 ||
inc bw-try
iseq \${bw-try} ${ENTRY_MAX_ATTEMPTS} && goto bw-give-up ||
echo Bootwright: no boot script yet (attempt \${bw-try} of ${ENTRY_MAX_ATTEMPTS}), retrying in ${ENTRY_RETRY_SECONDS} seconds...
sleep ${ENTRY_RETRY_SECONDS}
goto bw-fetch
:bw-give-up
echo Bootwright: giving up, trying the next boot device.
sleep ${ENTRY_RETRY_SECONDS}
exit 1
`;

/**
 * The built-in template is Bootwright's own constant: it renders in the
 * calling thread (microseconds), so machines get an entry script even while
 * the template worker is busy or being replaced. Only user templates need
 * the worker.
 */
let builtinEngine: TemplateEngine | undefined;

/** DEFAULT_ENTRY_TEMPLATE rendered with `data`, in-thread. */
export function renderDefaultEntry(data: TemplateData): string {
  builtinEngine ??= new TemplateEngine();
  return builtinEngine.render(DEFAULT_ENTRY_TEMPLATE, data);
}

interface StoredEntryScript {
  /** null: the built-in default. */
  template: string | null;
  updated_at: string | null;
  updated_by: string | null;
}

/** GET /services/ipxe-script (the contract's shape). */
export type { EntryScriptView };

/** The entry script template (`/services/ipxe-script`): custom or the built-in default. */
export class EntryScriptStore {
  private readonly section: Section<StoredEntryScript>;
  private readonly templates: TemplateRenderer;

  constructor(store: Store, templates: TemplateRenderer) {
    this.section = store.section<StoredEntryScript>('ipxe_entry_script', { template: null, updated_at: null, updated_by: null });
    this.templates = templates;
  }

  /** The template in use. */
  template(): string {
    return this.custom() ?? DEFAULT_ENTRY_TEMPLATE;
  }

  /** The custom template; null when the built-in default is in use. */
  custom(): string | null {
    return this.section.get().template;
  }

  view(): EntryScriptView {
    const stored = this.section.get();
    return {
      script: stored.template ?? DEFAULT_ENTRY_TEMPLATE,
      is_default: stored.template === null,
      default_script: DEFAULT_ENTRY_TEMPLATE,
      updated_at: stored.updated_at,
      updated_by: stored.updated_by,
    };
  }

  /** Stores a custom template after the render check (400 with the line when it fails). */
  async set(template: string, author: string): Promise<EntryScriptView> {
    const text = normalizeScriptText(template);
    await assertRenderableScript(this.templates, text, sampleEntryData(), 'body.script');
    // Saving the default's exact text is the same as resetting: later versions may improve the default.
    const custom = text === DEFAULT_ENTRY_TEMPLATE ? null : text;
    await this.section.set({ template: custom, updated_at: nowIso(), updated_by: author });
    return this.view();
  }

  async reset(author: string): Promise<EntryScriptView> {
    await this.section.set({ template: null, updated_at: nowIso(), updated_by: author });
    return this.view();
  }
}
