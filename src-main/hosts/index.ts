export { BOOT_RECORD_INTERVAL_MS, HostService, type HostServiceDeps } from './host-service.js';
export { DISCOVERY_LIMITS, DiscoveryLimiter, type DiscoveryLimits, type DiscoveryRefusal } from './discovery-limiter.js';
export { hostNameSource } from './host-name-source.js';
export { SerialQueue } from './serial-queue.js';
export type { BootObservation, Host, HostFilter, HostInput, HostReservationLink } from './host-types.js';
