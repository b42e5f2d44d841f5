import type { Counter, Gauge, Histogram } from 'prom-client';
import type { Metrics } from '../../metrics/metrics.js';
import { TFTP_ERRORS, type TftpErrorCode } from './tftp-constants.js';
import type { TftpServerEvent } from './tftp-server.js';

/** The TFTP server's counters in the core's registry (names prefixed bootwright_tftp_). */
export class TftpMetrics {
  private readonly transfers: Counter<'result'>;
  private readonly refused: Counter<'reason'>;
  private readonly probes: Counter;
  private readonly bytes: Counter;
  private readonly retransmits: Counter;
  private readonly active: Gauge;
  private readonly duration: Histogram;
  /** Transfers that started sending; a transfer that fails before its first DATA never counted as active. */
  private readonly running = new Set<number>();

  constructor(metrics: Metrics) {
    this.transfers = metrics.counter({ name: 'bootwright_tftp_transfers_total', help: 'TFTP transfers that ended, by result (completed, failed).', labelNames: ['result'] as const });
    this.refused = metrics.counter({ name: 'bootwright_tftp_requests_refused_total', help: 'TFTP requests answered with an error before any data, by reason.', labelNames: ['reason'] as const });
    this.probes = metrics.counter({ name: 'bootwright_tftp_size_probes_total', help: 'TFTP requests the client ended after the OACK (PXE firmware asking only for tsize).' });
    this.bytes = metrics.counter({ name: 'bootwright_tftp_bytes_sent_total', help: 'File bytes acknowledged by TFTP clients.' });
    this.retransmits = metrics.counter({ name: 'bootwright_tftp_retransmitted_blocks_total', help: 'TFTP DATA blocks sent again after a timeout or a window rollback.' });
    this.active = metrics.gauge({ name: 'bootwright_tftp_active_transfers', help: 'TFTP transfers sending data now.' });
    this.duration = metrics.histogram({
      name: 'bootwright_tftp_transfer_duration_seconds',
      help: 'Duration of completed TFTP transfers.',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    });
  }

  record(event: TftpServerEvent): void {
    switch (event.type) {
      case 'started':
        this.running.add(event.id);
        this.active.set(this.running.size);
        return;
      case 'completed':
        this.running.delete(event.id);
        this.active.set(this.running.size);
        this.transfers.inc({ result: 'completed' });
        this.bytes.inc(event.bytes);
        this.retransmits.inc(event.retransmits);
        this.duration.observe(event.durationMs / 1000);
        return;
      case 'failed':
        this.running.delete(event.id);
        this.active.set(this.running.size);
        this.transfers.inc({ result: 'failed' });
        this.bytes.inc(event.bytes);
        this.retransmits.inc(event.retransmits);
        return;
      case 'refused':
        this.refused.inc({ reason: TFTP_ERRORS[event.code as TftpErrorCode]?.name ?? 'not_defined' });
        return;
      case 'probe':
        this.probes.inc();
        return;
    }
  }

  resetActive(): void {
    this.running.clear();
    this.active.set(0);
  }
}
