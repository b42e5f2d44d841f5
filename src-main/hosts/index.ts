export { HostService, type HostServiceDeps } from './host-service.js';
export { hostNameSource } from './host-name-source.js';
export { SerialQueue } from './serial-queue.js';
export type { BootObservation, Host, HostFilter, HostInput, HostReservationLink } from './host-types.js';
