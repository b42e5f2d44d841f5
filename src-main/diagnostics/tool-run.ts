import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Command } from './diagnostics-commands.js';

/*
 * Runs one diagnostic tool: spawn without a shell, stdout read line by line,
 * killed when the caller aborts (the client went away) or the wall-time cap
 * passes. Output is bounded so a tool that misbehaves cannot fill memory.
 */

export const MAX_OUTPUT_LINES = 500;
const MAX_LINE_LENGTH = 1000;
const MAX_STDERR = 4000;

export interface ToolRunOptions {
  onLine(line: string): void;
  signal: AbortSignal;
  wallTimeMs: number;
  /** Wraps the command line (tests run the tools inside a network namespace). */
  wrap?: (command: Command) => Command;
}

export interface ToolOutcome {
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  stderr: string;
  lines: string[];
  /** The spawn itself failed (ENOENT: the tool is not installed). */
  spawnError: NodeJS.ErrnoException | null;
}

export function runTool(command: Command, options: ToolRunOptions): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    // Inside the executor: a wrapper that throws rejects the run instead of escaping the caller.
    const { tool, args } = options.wrap ? options.wrap(command) : command;
    const outcome: ToolOutcome = { exitCode: null, timedOut: false, cancelled: false, stderr: '', lines: [], spawnError: null };
    // LC_ALL=C: the parsers read the tools' English output, not a translation.
    const child = spawn(tool, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' }, windowsHide: true });
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      outcome.timedOut = true;
      kill();
    }, options.wallTimeMs);
    const onAbort = () => {
      outcome.cancelled = true;
      kill();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (outcome.lines.length >= MAX_OUTPUT_LINES) return;
      const text = line.slice(0, MAX_LINE_LENGTH);
      outcome.lines.push(text);
      options.onLine(text);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (outcome.stderr.length < MAX_STDERR) outcome.stderr = (outcome.stderr + chunk).slice(0, MAX_STDERR);
    });
    let exited = false;
    let linesDone = false;
    const finish = () => {
      // Resolve once the process exited and its last line was read.
      if (!exited || !linesDone) return;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    lines.on('close', () => {
      linesDone = true;
      finish();
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      outcome.spawnError = err;
      exited = true;
      linesDone = true;
      finish();
    });
    child.on('close', (code) => {
      outcome.exitCode = code;
      exited = true;
      finish();
    });
  });
}
