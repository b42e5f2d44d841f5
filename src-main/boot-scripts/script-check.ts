import { AppError } from '../core/errors.js';
import { hasIpxeShebang, IPXE_SHEBANG } from './ipxe-syntax.js';
import { TemplateError, type TemplateData, type TemplateEngine } from './template-engine.js';

/**
 * The save-time check of a script template: it parses, renders with sample
 * data within the engine's bounds, and the result is an iPXE script. A
 * failure is a 400 naming `field` and, for template errors, the line; nothing
 * is stored. Returns the sample rendering.
 */
export function assertRenderableScript(engine: TemplateEngine, source: string, data: TemplateData, field: string): string {
  let rendered: string;
  try {
    rendered = engine.render(source, data);
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
