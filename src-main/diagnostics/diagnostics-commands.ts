import { PING_LIMITS, TRACEROUTE_LIMITS, type PingRequest, type TracerouteRequest } from './diagnostics-contract.js';

/*
 * The command lines of the diagnostics, built from validated fields only
 * (diagnostics-target.ts checks the target, the contract bounds the
 * numbers). They run through spawn, never a shell. Where the tool accepts
 * it, `--` ends the options, so even a target that slipped past the grammar
 * could not be read as one.
 */

export type Platform = 'linux' | 'win32';
export type TraceTool = 'traceroute' | 'tracepath' | 'tracert';

export interface Command {
  tool: string;
  args: string[];
}

/** The request with its defaults filled in. */
export function pingSettings(request: PingRequest) {
  return {
    target: request.target,
    count: request.count ?? PING_LIMITS.count.default,
    timeout: request.timeout_seconds ?? PING_LIMITS.timeout_seconds.default,
    size: request.size ?? PING_LIMITS.size.default,
    family: request.family ?? null,
  };
}

export function traceSettings(request: TracerouteRequest) {
  return {
    target: request.target,
    maxHops: request.max_hops ?? TRACEROUTE_LIMITS.max_hops.default,
    timeout: request.timeout_seconds ?? TRACEROUTE_LIMITS.timeout_seconds.default,
    family: request.family ?? null,
  };
}

export function pingCommand(request: PingRequest, platform: Platform): Command {
  const s = pingSettings(request);
  const family = s.family === null ? [] : [`-${s.family}`];
  if (platform === 'win32') {
    // ping.exe: -n count, -w timeout in ms, -l payload size; it knows no `--`.
    return { tool: 'ping', args: ['-n', String(s.count), '-w', String(s.timeout * 1000), '-l', String(s.size), ...family, s.target] };
  }
  // iputils: -n numeric output, -c count, -W per-reply timeout (s), -s payload size.
  return { tool: 'ping', args: ['-n', '-c', String(s.count), '-W', String(s.timeout), '-s', String(s.size), ...family, '--', s.target] };
}

export function traceCommand(request: TracerouteRequest, tool: TraceTool): Command {
  const s = traceSettings(request);
  const family = s.family === null ? [] : [`-${s.family}`];
  switch (tool) {
    case 'tracert':
      // -d numeric, -h max hops, -w timeout in ms; no `--`.
      return { tool, args: ['-d', '-h', String(s.maxHops), '-w', String(s.timeout * 1000), ...family, s.target] };
    case 'tracepath':
      // tracepath has no probe timeout; the run's wall-time cap bounds it.
      return { tool, args: ['-n', '-m', String(s.maxHops), ...family, '--', s.target] };
    case 'traceroute':
      return { tool, args: ['-n', '-q', '3', '-w', String(s.timeout), '-m', String(s.maxHops), ...family, '--', s.target] };
  }
}

/** The longest a run may take: what the tool itself could spend plus a margin, at most `cap` ms. */
export function pingWallTimeMs(request: PingRequest, capMs: number): number {
  const s = pingSettings(request);
  // One request a second, the last one waits `timeout`; name resolution gets the margin.
  return Math.min(capMs, (s.count + s.timeout + 5) * 1000);
}

export function traceWallTimeMs(request: TracerouteRequest, capMs: number): number {
  const s = traceSettings(request);
  // traceroute sends its probes in parallel batches, but every hop may wait out its timeout.
  return Math.min(capMs, (s.maxHops * s.timeout + 5) * 1000);
}
