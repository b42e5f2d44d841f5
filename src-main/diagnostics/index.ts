import type { AreaModule } from '../core/area.js';
import { diagnosticsRoutes } from './diagnostics-routes.js';
import { DiagnosticsService, type DiagnosticsOptions } from './diagnostics-service.js';

export * from './diagnostics-contract.js';
export { DiagnosticsService, DEFAULT_MAX_RUN_MS, type DiagnosticRun, type DiagnosticsOptions } from './diagnostics-service.js';
export { pingCommand, traceCommand, type Command, type Platform, type TraceTool } from './diagnostics-commands.js';
export { targetProblem } from './diagnostics-target.js';
export { PingParser } from './ping-parser.js';
export { TraceParser } from './trace-parser.js';
export { diagnosticsRoutes } from './diagnostics-routes.js';

/**
 * The diagnostics area (docs/diagnostics.md): ping and traceroute through
 * the system's tools, plain and streamed (/network/ping, /network/traceroute
 * and their /stream variants). Test seams come in through `options`.
 */
export function diagnosticsArea(options: DiagnosticsOptions = {}): AreaModule<'diagnostics', DiagnosticsService, Record<string, never>> {
  return {
    name: 'diagnostics',
    needs: [],
    create(kernel) {
      const diagnostics = new DiagnosticsService(options);
      return { facade: diagnostics, routes: [diagnosticsRoutes(diagnostics, kernel.sse)], services: [] };
    },
  };
}
