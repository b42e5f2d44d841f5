import { createHash } from 'node:crypto';
import { AppError } from '../core/errors.js';
import type { ScriptsFacade } from '../scripts/scripts-facade.js';
import { TemplateError, type TemplateData } from '../templates/template-engine.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';
import type { RenderedScript } from './baselines-contract.js';
import type { BaselineRow } from './baseline-types.js';

/** `host.*` in a script: the machine's record, or only its MAC when no host has it. */
export interface HostData {
  id: number | null;
  mac: string;
  hostname: string | null;
  ip: string | null;
  group: string | null;
  tags: string[];
}

/** `server.*` in a script: where the machine reaches this server. */
export interface ServerData {
  name: string;
  ip: string;
  /** e.g. `http://192.168.10.1:8080` (as answer templates call it: `server.http_url`). */
  http_url: string;
  base_url: string;
}

export interface RenderDeps {
  templates: Pick<TemplateRenderer, 'render'>;
  scripts: Pick<ScriptsFacade, 'get'>;
}

/**
 * The data a step's script is rendered with: the script's declared variables
 * with the baseline's overrides over them, both as top-level names (the
 * content says `{{ name }}`, docs/scripts.md) and under `variables.`, plus
 * `host` and `server`, which win over a variable of the same name.
 */
export function stepData(defaults: Record<string, string>, overrides: Record<string, string>, host: HostData, server: ServerData): TemplateData {
  const variables = { ...defaults, ...overrides };
  return { ...variables, variables, host: { ...host, tags: [...host.tags] }, server: { ...server } };
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Renders every step of a baseline in order, in the templates area's
 * sandboxed worker. A step whose script is gone, or whose script does not
 * render, fails the whole answer with 409 INVALID_STATE naming the baseline,
 * the step and the script: a machine must never run half a baseline because
 * one script was broken.
 */
export async function renderSteps(row: BaselineRow, host: HostData, server: ServerData, deps: RenderDeps): Promise<RenderedScript[]> {
  const rendered: RenderedScript[] = [];
  for (const [index, step] of row.scripts.entries()) {
    const position = index + 1;
    const where = `step ${position} of baseline "${row.name}" (id ${row.id})`;
    const script = deps.scripts.get(step.script_id);
    if (!script) throw new AppError('INVALID_STATE', `${where}: script "${step.script_name}" (id ${step.script_id}) no longer exists; edit the baseline's scripts`);
    let content: string;
    try {
      content = await deps.templates.render(script.content, stepData(script.variables, step.variables, host, server));
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      throw new AppError('INVALID_STATE', `script "${script.name}" (id ${script.id}, ${where}) does not render: ${err.message}`, {
        details: [{ field: `scripts.${index}`, message: err.message }],
      });
    }
    rendered.push({
      position,
      script_id: script.id,
      name: script.name,
      kind: script.kind,
      version: script.version,
      content,
      sha256: sha256Hex(content),
      continue_on_error: step.continue_on_error,
      timeout_seconds: step.timeout_seconds,
    });
  }
  return rendered;
}
