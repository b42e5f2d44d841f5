import type { TemplateRenderer } from '../../templates/index.js';
import type { ScriptCheck, ScriptIssue, ScriptKind, ScriptVariables } from '../scripts-contract.js';
import { checkBatch } from './batch-check.js';
import { checkCloudInit, shellOfInterpreter } from './cloud-init-check.js';
import { renderForCheck } from './liquid-check.js';
import { checkPowerShell } from './powershell-check.js';
import { textIssues } from './script-text.js';
import type { ShellChecker, ShellCommand } from './shell-checker.js';

export interface ScriptCheckerDeps {
  templates: Pick<TemplateRenderer, 'render'>;
  shell: Pick<ShellChecker, 'check'>;
  /** The shell checkers of this server (null: not installed, the check says so in a warning). */
  commands: { sh: ShellCommand | null; bash: ShellCommand | null };
}

/**
 * The per-kind check (docs/scripts.md, "Checks"), in three steps: the text
 * (encoding, control characters, line endings); the Liquid rendering with the
 * declared variables and a sample machine; the kind's own check of the
 * rendered text (sh -n, bash -n, YAML, PowerShell and batch
 * well-formedness). A step with errors ends the check: the next would read
 * text that is already known to be wrong.
 */
export class ScriptChecker {
  private readonly deps: ScriptCheckerDeps;

  constructor(deps: ScriptCheckerDeps) {
    this.deps = deps;
  }

  async check(kind: ScriptKind, content: string, variables: ScriptVariables = {}): Promise<ScriptCheck> {
    const text = textIssues(kind, content);
    if (hasError(text)) return result('text', text);
    const liquid = await renderForCheck(this.deps.templates, content, variables);
    if (liquid.text === null) return result('liquid', [...text, ...liquid.issues]);
    const own = await this.kindCheck(kind, liquid.text);
    return result(own.checker, [...text, ...liquid.issues, ...own.issues]);
  }

  private async kindCheck(kind: ScriptKind, text: string): Promise<{ checker: string; issues: ScriptIssue[] }> {
    switch (kind) {
      case 'sh':
      case 'bash':
        return this.shellCheck(kind, text);
      case 'powershell':
        return { checker: 'powershell well-formedness', issues: checkPowerShell(text) };
      case 'batch':
        return { checker: 'batch text', issues: checkBatch(text) };
      case 'cloud-init': {
        const part = checkCloudInit(text);
        if (part.type !== 'script') return { checker: 'cloud-init yaml', issues: part.issues };
        const shell = shellOfInterpreter(part.interpreter);
        if (shell === null) return { checker: 'cloud-init script', issues: [] };
        const checked = await this.shellCheck(shell, text);
        return { checker: `cloud-init script, ${checked.checker}`, issues: checked.issues };
      }
    }
  }

  private async shellCheck(shell: 'sh' | 'bash', text: string): Promise<{ checker: string; issues: ScriptIssue[] }> {
    const command = this.deps.commands[shell];
    if (!command) {
      return { checker: 'text', issues: [{ severity: 'warning', line: null, message: `${shell} is not installed on this server: the syntax was not checked` }] };
    }
    const outcome = await this.deps.shell.check(command, text);
    return { checker: command.label, issues: outcome.issues };
  }
}

function hasError(issues: readonly ScriptIssue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}

/** Issues in line order (whole-text findings first); `ok` when none is an error. */
function result(checker: string, issues: ScriptIssue[]): ScriptCheck {
  const ordered = issues.map((issue, index) => ({ issue, index })).sort((a, b) => (a.issue.line ?? 0) - (b.issue.line ?? 0) || a.index - b.index);
  return { ok: !hasError(issues), checker, issues: ordered.map(({ issue }) => issue) };
}
