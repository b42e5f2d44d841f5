import { describe, expect, it } from 'vitest';
import { parseBashOutput, parseDashOutput, ShellChecker, systemShellCommands, type ShellCommand } from '../../../../src-main/scripts/check/shell-checker.js';

const commands = systemShellCommands();

/** The system's checker; the suites using it are skipped when it is missing. */
function need(command: ShellCommand | null): ShellCommand {
  if (!command) throw new Error('no such shell on this machine');
  return command;
}

describe('shell output parsing', () => {
  it('reads dash lines', () => {
    expect(parseDashOutput('dash: 3: Syntax error: end of file unexpected (expecting "fi")\n')).toEqual([
      { severity: 'error', line: 3, message: 'Syntax error: end of file unexpected (expecting "fi")' },
    ]);
    expect(parseDashOutput('something odd\n')).toEqual([{ severity: 'error', line: null, message: 'something odd' }]);
  });

  it('reads bash lines and folds the quoted source line into the error', () => {
    expect(parseBashOutput("script: line 4: syntax error near unexpected token `fi'\nscript: line 4: `fi fi'\n")).toEqual([
      { severity: 'error', line: 4, message: "syntax error near unexpected token `fi' (in: fi fi)" },
    ]);
  });
});

describe.skipIf(commands.sh === null || commands.bash === null)('ShellChecker with the system shells', () => {
  const checker = new ShellChecker();
  const sh = (): ShellCommand => need(commands.sh);
  const bash = (): ShellCommand => need(commands.bash);

  it('passes good sh and reports a bad one with its line', async () => {
    expect(await checker.check(sh(), '#!/bin/sh\nif [ -n "$1" ]; then\n  echo "$1"\nfi\n')).toEqual({ checked: true, issues: [] });
    const bad = await checker.check(sh(), 'echo start\nif true; then\n  echo\n');
    expect(bad.checked).toBe(true);
    expect(bad.issues).toEqual([expect.objectContaining({ severity: 'error', line: 4 })]);
  });

  it('refuses bash-only syntax under sh and accepts it under bash', async () => {
    const bashism = 'a=(1 2 3)\necho "${a[1]}"\n';
    expect((await checker.check(sh(), bashism)).issues).toEqual([expect.objectContaining({ line: 1, severity: 'error' })]);
    expect((await checker.check(bash(), bashism)).issues).toEqual([]);
    const bad = await checker.check(bash(), 'echo ok\nif true; then\n  echo\nfi fi\n');
    expect(bad.issues).toEqual([expect.objectContaining({ line: 4, severity: 'error' })]);
  });

  it('never runs the script: a check of a command that would write a file writes nothing', async () => {
    const marker = `/tmp/bootwright-never-${process.pid}-${Date.now()}`;
    const outcome = await checker.check(sh(), `touch ${marker}\n`);
    expect(outcome.issues).toEqual([]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
  });

  it('gives the child only PATH', async () => {
    // `env` prints its environment: run as a "checker" it shows what a check sees.
    const env: ShellCommand = { label: 'env', command: '/usr/bin/env', args: [], input: 'stdin', parse: (output) => [{ severity: 'warning', line: null, message: output.trim() }] };
    const outcome = await checker.check(env, '');
    expect(outcome.issues[0]?.message).toMatch(/^PATH=[^\n]*$/);
  });
});

describe('ShellChecker limits', () => {
  const slow: ShellCommand = { label: 'slow', command: '/bin/sleep', args: ['30'], input: 'stdin', parse: () => [] };

  it('kills a checker that runs past the time limit and says so', async () => {
    const checker = new ShellChecker({ timeoutMs: 100 });
    const outcome = await checker.check(slow, 'true\n');
    expect(outcome).toEqual({ checked: false, issues: [{ severity: 'error', line: null, message: 'slow did not finish within 100 ms and was stopped' }] });
  });

  it('kills a checker that prints too much', async () => {
    const noisy: ShellCommand = { label: 'noisy', command: '/usr/bin/yes', args: [], input: 'stdin', parse: () => [] };
    const outcome = await new ShellChecker({ maxOutputBytes: 1024, timeoutMs: 5000 }).check(noisy, '');
    expect(outcome.issues[0]?.message).toBe('noisy printed more than 1024 bytes and was stopped');
  });

  it('runs at most `slots` at once and refuses beyond the waiting list with 503', async () => {
    const checker = new ShellChecker({ timeoutMs: 200, slots: 1, maxWaiting: 1 });
    const first = checker.check(slow, '');
    const second = checker.check(slow, '');
    await expect(checker.check(slow, '')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const results = await Promise.all([first, second]);
    expect(results.every((result) => !result.checked)).toBe(true);
    // Slots are given back: a later check runs.
    expect((await checker.check(slow, '')).checked).toBe(false);
  });

  it('a missing checker is a warning, not a failure', async () => {
    const missing: ShellCommand = { label: 'nope -n', command: '/nonexistent/nope', args: ['-n'], input: 'stdin', parse: () => [] };
    const outcome = await new ShellChecker().check(missing, 'true\n');
    expect(outcome.checked).toBe(false);
    expect(outcome.issues[0]).toMatchObject({ severity: 'warning' });
  });
});
