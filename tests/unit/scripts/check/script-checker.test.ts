import { describe, expect, it } from 'vitest';
import { ScriptChecker } from '../../../../src-main/scripts/check/script-checker.js';
import { ShellChecker, systemShellCommands, type ShellCommand } from '../../../../src-main/scripts/check/shell-checker.js';
import { TemplateEngine } from '../../../../src-main/templates/index.js';

const engine = new TemplateEngine();
const templates = { render: async (source: string, data: Record<string, unknown>) => engine.render(source, data) };
const system = systemShellCommands();

function checker(commands = system, shell = new ShellChecker()): ScriptChecker {
  return new ScriptChecker({ templates, shell, commands });
}

describe.skipIf(system.sh === null || system.bash === null)('ScriptChecker', () => {
  it('checks the rendered text: a branch the sample machine does not take is not checked', async () => {
    const result = await checker().check('sh', '{% if host.hostname == "nope" %}if then{% endif %}\necho {{ who }}\n', { who: 'x' });
    expect(result).toEqual({ ok: true, checker: 'sh -n (dash)', issues: [] });
  });

  it('stops at text errors without starting a checker', async () => {
    let spawned = 0;
    const counting = { check: async () => { spawned += 1; return { checked: true, issues: [] }; } };
    const result = await new ScriptChecker({ templates, shell: counting, commands: system }).check('bash', 'echo a\u0000\n');
    expect(result).toMatchObject({ ok: false, checker: 'text' });
    expect(spawned).toBe(0);
  });

  it('orders issues by line and keeps warnings apart from errors', async () => {
    const result = await checker().check('sh', 'echo {{ a }}\nif true; then\n', {});
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => [issue.severity, issue.line])).toEqual([
      ['warning', 1],
      ['error', 3],
    ]);
  });

  it('checks a cloud-init #! part with the shell it names, and a #cloud-config as YAML', async () => {
    const script = await checker().check('cloud-init', '#!/bin/bash\na=(1\n');
    expect(script).toMatchObject({ ok: false, checker: 'cloud-init script, bash -n' });
    const other = await checker().check('cloud-init', '#!/usr/bin/python3\nprint(\n');
    expect(other).toMatchObject({ ok: true, checker: 'cloud-init script' });
    expect(await checker().check('cloud-init', '#cloud-config\nhostname: {{ host.hostname }}\n')).toEqual({ ok: true, checker: 'cloud-init yaml', issues: [] });
  });

  it('a slow checker fails the check with a time-limit error', async () => {
    const slow: ShellCommand = { label: 'slow sh', command: '/bin/sleep', args: ['30'], input: 'stdin', parse: () => [] };
    const result = await checker({ sh: slow, bash: system.bash }, new ShellChecker({ timeoutMs: 100 })).check('sh', 'true\n');
    expect(result).toEqual({ ok: false, checker: 'slow sh', issues: [{ severity: 'error', line: null, message: 'slow sh did not finish within 100 ms and was stopped' }] });
  });

  it('a shell missing on this server is a warning', async () => {
    const result = await checker({ sh: null, bash: null }).check('bash', 'echo\n');
    expect(result).toMatchObject({ ok: true, checker: 'text', issues: [expect.objectContaining({ severity: 'warning', message: expect.stringContaining('not installed') })] });
  });

  it('PowerShell and batch get their well-formedness checks', async () => {
    expect(await checker().check('powershell', 'if ($a) { "x" }\r\n')).toEqual({ ok: true, checker: 'powershell well-formedness', issues: [] });
    expect((await checker().check('powershell', 'if ($a) { "x"\r\n')).ok).toBe(false);
    expect(await checker().check('batch', '@echo off\r\necho {{ x }}\r\n', { x: '1' })).toEqual({ ok: true, checker: 'batch text', issues: [] });
  });
});
