import type { BindTarget } from './dns-listeners.js';
import type { WorkerMetricsDelta } from './worker-metrics.js';
import type { ZoneSnapshot } from './zone-snapshot.js';

/** Fixed at spawn (workerData). */
export interface DnsWorkerConfig {
  index: number;
  port: number;
  /** Bind UDP with SO_REUSEPORT so several workers share each address (Node >= 22.12 on Linux). */
  reusePort: boolean;
  /** This worker also serves TCP (only one does: TCP is the rare path). */
  tcp: boolean;
}

/** Main thread → worker. Every request carries a sequence number its reply echoes. */
export type ToWorker =
  | { type: 'zone'; seq: number; snapshot: ZoneSnapshot }
  | { type: 'bind'; seq: number; targets: BindTarget[] }
  | { type: 'flush'; seq: number }
  | { type: 'stop'; seq: number };

export interface BindFailure {
  address: string;
  message: string;
}

/** Worker → main thread. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; seq: number; listen?: string[]; failures?: BindFailure[] }
  | { type: 'metrics'; delta: WorkerMetricsDelta };
