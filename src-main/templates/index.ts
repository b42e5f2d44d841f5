import type { AreaModule } from '../core/area.js';
import { WorkerTemplateRenderer, type TemplateRenderer } from './template-renderer.js';

export { TemplateEngine, TemplateError, TEMPLATE_LIMITS, type TemplateData } from './template-engine.js';
export { WorkerTemplateRenderer, TEMPLATE_WORKER_DEFAULTS, type TemplateRenderer, type TemplateWorkerOptions } from './template-renderer.js';

/**
 * The templates area module (docs/architecture.md, "Area folders"): the
 * sandboxed engine of user-written templates and the worker thread that runs
 * it. The facade is the one TemplateRenderer (`ctx.templates`) every area that
 * renders a user template shares (profiles check scripts at save time, the
 * boot scripts render them for booting machines). It needs no other area and
 * has no routes; close() ends the worker, after the areas that render with it
 * (listed later) have closed.
 */
export function templatesArea(): AreaModule<'templates', TemplateRenderer, Record<string, never>> {
  return {
    name: 'templates',
    needs: [],
    create(kernel) {
      const renderer = new WorkerTemplateRenderer({ log: kernel.log });
      return { facade: renderer, routes: [], services: [], close: () => renderer.close() };
    },
  };
}
