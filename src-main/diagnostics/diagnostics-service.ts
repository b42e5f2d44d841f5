import { existsSync } from 'node:fs';
import path from 'node:path';
import { Value } from 'typebox/value';
import { AppError, validationError, type FieldError } from '../core/errors.js';
import {
  MAX_CONCURRENT_DIAGNOSTICS,
  PingRequestSchema,
  TracerouteRequestSchema,
  type PingReply,
  type PingRequest,
  type PingResult,
  type TraceHop,
  type TracerouteRequest,
  type TracerouteResult,
} from './diagnostics-contract.js';
import { pingCommand, pingWallTimeMs, traceCommand, traceWallTimeMs, type Command, type Platform, type TraceTool } from './diagnostics-commands.js';
import { targetProblem } from './diagnostics-target.js';
import { PingParser } from './ping-parser.js';
import { TraceParser } from './trace-parser.js';
import { runTool, type ToolOutcome } from './tool-run.js';

/** The hard cap on one run's wall time, whatever its fields say. */
export const DEFAULT_MAX_RUN_MS = 120_000;
/** Retry-After of a refused run: a short ping takes a few seconds. */
const RETRY_AFTER_SECONDS = 5;

export interface DiagnosticsOptions {
  /** Runs allowed at once (default 4). */
  maxConcurrent?: number;
  /** Hard wall-time cap per run in ms (default 120 s). */
  maxRunMs?: number;
  /** Default: this process's platform (anything but win32 runs the Linux tools). */
  platform?: Platform;
  /** Whether a program is installed (default: searched on PATH and the sbin folders). */
  hasTool?: (tool: string) => boolean;
  /** Wraps each command line (tests run the tools inside a network namespace). */
  wrap?: (command: Command) => Command;
}

/** A started run: its result (after the last row) and the way to stop it early. */
export interface DiagnosticRun<Result> {
  result: Promise<Result>;
  cancel(): void;
}

/**
 * Ping and traceroute through the system's tools. `ping`/`traceroute`
 * validate, take one of the run slots (or throw 429), spawn and return at
 * once; rows reach `onRow` as the lines arrive.
 */
export class DiagnosticsService {
  private running = 0;
  private readonly maxConcurrent: number;
  private readonly maxRunMs: number;
  private readonly platform: Platform;
  private readonly hasTool: (tool: string) => boolean;
  private readonly wrap: ((command: Command) => Command) | undefined;

  constructor(options: DiagnosticsOptions = {}) {
    this.maxConcurrent = options.maxConcurrent ?? MAX_CONCURRENT_DIAGNOSTICS;
    this.maxRunMs = options.maxRunMs ?? DEFAULT_MAX_RUN_MS;
    this.platform = options.platform ?? (process.platform === 'win32' ? 'win32' : 'linux');
    this.hasTool = options.hasTool ?? onPath;
    this.wrap = options.wrap;
  }

  /** How many runs are under way (tests and /status). */
  get active(): number {
    return this.running;
  }

  ping(request: PingRequest, onRow: (row: PingReply) => void = () => {}): DiagnosticRun<PingResult> {
    checkRequest(request, PingRequestSchema);
    const command = pingCommand(request, this.platform);
    const parser = new PingParser();
    return this.launch(command, pingWallTimeMs(request, this.maxRunMs), (line) => {
      const row = parser.line(line);
      if (row) onRow(row);
    }, (outcome) => ({ target: request.target, replies: [...parser.replies], ...parser.summary(), ...outcomeFields(command.tool, outcome) }));
  }

  traceroute(request: TracerouteRequest, onRow: (row: TraceHop) => void = () => {}): DiagnosticRun<TracerouteResult> {
    checkRequest(request, TracerouteRequestSchema);
    const command = traceCommand(request, this.traceTool());
    const parser = new TraceParser();
    return this.launch(command, traceWallTimeMs(request, this.maxRunMs), (line) => {
      const row = parser.line(line);
      if (row) onRow(row);
    }, (outcome) => ({ target: request.target, hops: parser.hops(), reached: parser.reached(), ...outcomeFields(command.tool, outcome) }));
  }

  /** tracert on Windows; traceroute on Linux, tracepath when traceroute is not installed. */
  traceTool(): TraceTool {
    if (this.platform === 'win32') return 'tracert';
    return this.hasTool('traceroute') || !this.hasTool('tracepath') ? 'traceroute' : 'tracepath';
  }

  private launch<Result>(command: Command, wallTimeMs: number, onLine: (line: string) => void, finish: (outcome: ToolOutcome) => Result): DiagnosticRun<Result> {
    if (this.running >= this.maxConcurrent) {
      throw new AppError('RATE_LIMITED', `${this.maxConcurrent} diagnostics are running already; retry in ${RETRY_AFTER_SECONDS} s`, {
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      });
    }
    this.running += 1;
    const controller = new AbortController();
    const result = runTool(command, { onLine, signal: controller.signal, wallTimeMs, ...(this.wrap ? { wrap: this.wrap } : {}) })
      .finally(() => {
        this.running -= 1;
      })
      .then((outcome) => {
        if (outcome.spawnError) {
          const missing = outcome.spawnError.code === 'ENOENT';
          throw new AppError('UNAVAILABLE', missing ? `${command.tool} is not installed on the server` : `${command.tool} could not be started: ${outcome.spawnError.message}`);
        }
        return finish(outcome);
      });
    return { result, cancel: () => controller.abort() };
  }
}

function outcomeFields(tool: string, outcome: ToolOutcome) {
  const error = outcome.stderr.trim();
  return { tool, exit_code: outcome.exitCode, timed_out: outcome.timedOut, error: error === '' ? null : error, lines: outcome.lines };
}

/** The route schemas check the body already; this repeats it for every other caller and adds the target grammar. */
function checkRequest(request: PingRequest | TracerouteRequest, schema: typeof PingRequestSchema | typeof TracerouteRequestSchema): void {
  const errors: FieldError[] = [...Value.Errors(schema, request)].slice(0, 10).map((error) => ({
    field: `body${error.instancePath.replace(/\//g, '.')}`,
    message: error.message,
  }));
  if (typeof request.target === 'string') {
    const problem = targetProblem(request.target);
    if (problem) errors.push({ field: 'body.target', message: problem });
  }
  if (errors.length > 0) throw validationError(errors);
}

function onPath(tool: string): boolean {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  return dirs.some((dir) => dir !== '' && existsSync(path.join(dir, tool)));
}
