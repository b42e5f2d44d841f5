import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../core/errors.js';
import type { ScriptIssue } from '../scripts-contract.js';

/*
 * The syntax check of shell scripts: `dash -n` / `bash -n` (parse, never
 * run) in a child process started with an argv, never through a shell, with
 * an environment of PATH only, its working directory a fresh private
 * temporary directory, a time limit after which it is killed, a cap on what
 * it may print, and at most `slots` at once (docs/scripts.md, "Checks").
 */

/** How one checker is started. `input: 'file'` writes the text to `script` in the private directory and passes its name. */
export interface ShellCommand {
  /** Shown as ScriptCheck.checker, e.g. "sh -n (dash)". */
  label: string;
  command: string;
  args: readonly string[];
  input: 'stdin' | 'file';
  /** Turns the checker's output into issues. */
  parse: (output: string) => ScriptIssue[];
}

export interface ShellCheckerOptions {
  /** Wall time of one check before the child is killed; default 3000 ms. */
  timeoutMs?: number;
  /** Checks running at once; default 2. */
  slots?: number;
  /** Checks waiting for a slot before further ones are refused with 503; default 128 (a store import validates many scripts at once). */
  maxWaiting?: number;
  /** Bytes of output kept; the child is killed when it prints more. Default 64 KiB. */
  maxOutputBytes?: number;
}

export interface ShellOutcome {
  issues: ScriptIssue[];
  /** False when the checker could not give a verdict (not installed, timed out): the issues say why. */
  checked: boolean;
}

export const SHELL_CHECK_DEFAULTS = { timeoutMs: 3000, slots: 2, maxWaiting: 128, maxOutputBytes: 64 * 1024 } as const;

/** The only environment a checker sees. */
const CHECK_PATH = '/usr/local/bin:/usr/bin:/bin';
/** The file name a file-input checker reads (bash names lines only when it reads a named file; a socket /dev/stdin cannot be opened). */
const SCRIPT_FILE = 'script';

/** dash: `dash: 3: Syntax error: end of file unexpected (expecting "fi")`. */
export function parseDashOutput(output: string): ScriptIssue[] {
  const issues: ScriptIssue[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const match = /^[^:]*: (\d+): (.*)$/.exec(line);
    issues.push(match ? { severity: 'error', line: Number(match[1]), message: match[2] ?? '' } : { severity: 'error', line: null, message: line });
  }
  return issues;
}

/**
 * bash: `script: line 4: syntax error near unexpected token `fi'` followed by
 * `script: line 4: `fi fi'` (the offending source, folded into the first).
 */
export function parseBashOutput(output: string): ScriptIssue[] {
  const issues: ScriptIssue[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const match = /^[^:]*: line (\d+): (.*)$/.exec(line);
    if (!match) {
      issues.push({ severity: 'error', line: null, message: line });
      continue;
    }
    const number = Number(match[1]);
    const message = match[2] ?? '';
    const previous = issues.at(-1);
    if (previous && previous.line === number && /^`.*'$/.test(message)) {
      previous.message += ` (in: ${message.slice(1, -1)})`;
      continue;
    }
    issues.push({ severity: 'error', line: number, message });
  }
  return issues;
}

function onPath(tool: string): string | null {
  for (const dir of CHECK_PATH.split(':')) {
    const full = path.join(dir, tool);
    if (existsSync(full)) return full;
  }
  return null;
}

/** The checkers of this machine: `dash -n` for sh (what Debian's /bin/sh is; POSIX sh where it is not), `bash -n`. */
export function systemShellCommands(): { sh: ShellCommand | null; bash: ShellCommand | null } {
  const dash = onPath('dash');
  const sh = dash ?? onPath('sh');
  const bash = onPath('bash');
  return {
    sh: sh === null ? null : { label: dash ? 'sh -n (dash)' : 'sh -n', command: sh, args: ['-n'], input: 'stdin', parse: parseDashOutput },
    bash: bash === null ? null : { label: 'bash -n', command: bash, args: ['-n', SCRIPT_FILE], input: 'file', parse: parseBashOutput },
  };
}

/** Runs shell syntax checks in bounded child processes, at most `slots` at once. */
export class ShellChecker {
  private readonly options: Required<ShellCheckerOptions>;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: ShellCheckerOptions = {}) {
    this.options = { ...SHELL_CHECK_DEFAULTS, ...options };
  }

  /** Checks `text` with `command`; a 503 when too many checks are waiting already. */
  async check(command: ShellCommand, text: string): Promise<ShellOutcome> {
    await this.acquire();
    try {
      return await this.run(command, text);
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.options.slots) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.maxWaiting) {
      return Promise.reject(new AppError('UNAVAILABLE', `${this.options.maxWaiting} script checks are waiting already; retry shortly`, { headers: { 'retry-after': '1' } }));
    }
    // The slot passes straight to the waiter: `running` stays counted.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  private async run(command: ShellCommand, text: string): Promise<ShellOutcome> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bootwright-script-check-'));
    try {
      if (command.input === 'file') await writeFile(path.join(dir, SCRIPT_FILE), text, { mode: 0o600 });
      const result = await this.spawnBounded(command, dir, command.input === 'stdin' ? text : null);
      if (result.spawnError) {
        return { checked: false, issues: [{ severity: 'warning', line: null, message: `${command.label} could not run on this server (${result.spawnError}); only the text was checked` }] };
      }
      if (result.timedOut) {
        return { checked: false, issues: [{ severity: 'error', line: null, message: `${command.label} did not finish within ${this.options.timeoutMs} ms and was stopped` }] };
      }
      if (result.overflow) {
        return { checked: false, issues: [{ severity: 'error', line: null, message: `${command.label} printed more than ${this.options.maxOutputBytes} bytes and was stopped` }] };
      }
      const issues = command.parse(result.output);
      if (result.exitCode !== 0 && !issues.some((issue) => issue.severity === 'error')) {
        issues.push({ severity: 'error', line: null, message: `${command.label} failed (exit ${result.exitCode ?? result.signal ?? 'unknown'})` });
      }
      return { checked: true, issues };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private spawnBounded(command: ShellCommand, cwd: string, stdin: string | null) {
    return new Promise<{ output: string; exitCode: number | null; signal: string | null; timedOut: boolean; overflow: boolean; spawnError: string | null }>((resolve) => {
      let output = '';
      let bytes = 0;
      let timedOut = false;
      let overflow = false;
      const child = spawn(command.command, [...command.args], {
        cwd,
        env: { PATH: CHECK_PATH },
        stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, this.options.timeoutMs);
      const collect = (chunk: Buffer): void => {
        bytes += chunk.length;
        if (bytes > this.options.maxOutputBytes) {
          if (!overflow) child.kill('SIGKILL');
          overflow = true;
          return;
        }
        output += chunk.toString('utf8');
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      let spawnError: string | null = null;
      child.on('error', (err) => {
        spawnError = err.message;
      });
      child.on('close', (exitCode, signal) => {
        clearTimeout(timer);
        resolve({ output, exitCode, signal, timedOut, overflow, spawnError });
      });
      if (stdin !== null && child.stdin) {
        // A checker that stops reading early (a syntax error on line 1) closes the pipe: not a failure of ours.
        child.stdin.on('error', () => undefined);
        child.stdin.end(stdin);
      }
    });
  }
}
