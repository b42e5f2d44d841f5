import type { EventLog } from '../events/event-log.js';
import { SERVICE_STATES, type ServiceManager } from '../services/service-manager.js';
import type { Metrics } from './metrics.js';

/**
 * The metrics every core has: one gauge sample per service and state (1 for
 * the current state, 0 otherwise, read at scrape time) and a counter of
 * emitted events by kind and level. Returns the function that stops counting.
 */
export function registerCoreMetrics(metrics: Metrics, deps: { services: ServiceManager; events: EventLog }): () => void {
  metrics.gauge({
    name: 'bootwright_service_state',
    help: 'Service state: 1 for the state the service is in, 0 for the others.',
    labelNames: ['service', 'state'] as const,
    collect() {
      this.reset();
      for (const service of deps.services.list()) {
        for (const state of SERVICE_STATES) this.set({ service: service.name, state }, service.state === state ? 1 : 0);
      }
    },
  });
  const events = metrics.counter({
    name: 'bootwright_events_total',
    help: 'Events emitted, by kind and level.',
    labelNames: ['kind', 'level'] as const,
  });
  return deps.events.subscribe((event) => events.inc({ kind: event.kind, level: event.level }));
}
