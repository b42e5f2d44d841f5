import type { AreaModule } from '../core/area.js';
import type { TemplateRenderer } from '../templates/index.js';
import { ScriptChecker } from './check/script-checker.js';
import { ShellChecker, systemShellCommands, type ShellCheckerOptions, type ShellCommand } from './check/shell-checker.js';
import { ScriptService } from './script-service.js';
import { scriptRoutes } from './scripts-routes.js';
import type { ScriptsFacade } from './scripts-facade.js';

export * from './scripts-contract.js';
export type { ScriptsFacade } from './scripts-facade.js';
export { ScriptService, sha256Of, type ScriptChangeNote, type ScriptFilter, type ScriptVersionRow } from './script-service.js';
export { ScriptChecker } from './check/script-checker.js';
export { ShellChecker, systemShellCommands, SHELL_CHECK_DEFAULTS, type ShellCheckerOptions, type ShellCommand } from './check/shell-checker.js';
export { hasLiquidMarkup, RESERVED_VARIABLES, sampleScriptData } from './check/liquid-check.js';
export { familyFits } from './script-input.js';

export interface ScriptsAreaOptions {
  /** Limits of the sh -n / bash -n child processes (tests shorten the time limit). */
  shellCheck?: ShellCheckerOptions;
  /** The shell checkers (tests substitute a slow or missing one); default what this machine has. */
  shellCommands?: { sh: ShellCommand | null; bash: ShellCommand | null };
}

/**
 * The scripts area (docs/scripts.md): post-install scripts with versions,
 * diff and rollback (core/text-versions.ts) and a per-kind check. It needs
 * the templates area, whose sandboxed renderer checks the Liquid in a
 * script; baselines (listed later) register their usage check here.
 */
export function scriptsArea(options: ScriptsAreaOptions = {}): AreaModule<'scripts', ScriptsFacade, { templates: TemplateRenderer }> {
  return {
    name: 'scripts',
    needs: ['templates'],
    create(kernel, { templates }) {
      const checker = new ScriptChecker({
        templates,
        shell: new ShellChecker(options.shellCheck ?? {}),
        commands: options.shellCommands ?? systemShellCommands(),
      });
      const scripts = new ScriptService({ store: kernel.store, events: kernel.events, log: kernel.log, checker });
      return { facade: scripts, routes: [scriptRoutes(scripts)], services: [] };
    },
  };
}
