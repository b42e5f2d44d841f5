import { AppError } from '../core/errors.js';
import { hasIpxeShebang, IPXE_SHEBANG } from './ipxe-syntax.js';
import { TemplateError, type TemplateData } from '../templates/template-engine.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';

/**
 * The save-time check of a script template: it parses, renders with sample
 * data within the engine's bounds, and the result is an iPXE script. A
 * failure is a 400 naming `field` and, for template errors, the line; nothing
 * is stored. Returns the sample rendering. The render runs in the template
 * worker, so a template that would stall it fails here with "render exceeded
 * N ms" instead of holding the API; a busy renderer is a 503, not a 400.
 */
export async function assertRenderableScript(templates: TemplateRenderer, source: string, data: TemplateData, field: string): Promise<string> {
  let rendered: string;
  try {
    rendered = await templates.render(source, data);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    throw new AppError('VALIDATION_FAILED', `${field}: ${err.message}`, { details: [{ field, message: err.message }] });
  }
  if (!hasIpxeShebang(rendered)) {
    const message = `line 1: an iPXE script must start with the line "${IPXE_SHEBANG}"`;
    throw new AppError('VALIDATION_FAILED', `${field}: ${message}`, { details: [{ field, message }] });
  }
  return rendered;
}
