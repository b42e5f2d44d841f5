/** The power area's public surface (docs/power.md). */
export { PowerService, type PowerDeps, type PowerOptions } from './power-service.js';
export type { HostDirectory, HostDirectorySource, PowerHost } from './host-directory.js';
export { BmcError, type BmcErrorReason } from './bmc-error.js';
export { BOOT_DEVICES, BMC_PROTOCOLS, POWER_ACTIONS, POWER_STATES, type BmcConnection, type BmcTarget } from './bmc-client.js';
export { ManualClock, systemClock, type SchedulerClock } from './wol/scheduler-clock.js';
export type { WolDatagram, WolTransport } from './wol/wol-sender.js';
