import type { RaisedAlert } from '../alerts/alerts-contract.js';
import type { BootloaderCheckReport } from './boot-files-contract.js';

/** The check reads and hashes files: alerts reuse a result this young instead of checking on every GET /alerts. */
export const CHECK_REUSE_MS = 60_000;

/**
 * Boot-loader errors of architectures machines were actually seen with, as
 * alerts (one per architecture): machines of that kind cannot boot now.
 * Architectures nobody booted raise nothing (the check page lists them).
 */
export function bootloaderAlerts(report: BootloaderCheckReport): RaisedAlert[] {
  return report.architectures
    .filter((architecture) => architecture.seen && !architecture.ignored && architecture.errors > 0)
    .map((architecture) => {
      const problems = report.problems.filter((problem) => problem.severity === 'error' && problem.architectures.includes(architecture.id));
      return {
        id: `bootloader.${architecture.id}`,
        severity: 'error' as const,
        source: 'boot-files',
        title: `${architecture.name} machines cannot get their boot loader`,
        message: problems.map((problem) => `${problem.name}: ${problem.message} — ${problem.fix}`).join('\n') || `${architecture.errors} error(s) in the boot loader check`,
        since: null,
        link: '/services/tftp?tab=bootloaders',
      };
    });
}

/** A check run at most once per `reuseMs` for the alert source (the check itself stays live on its own route). */
export function cachedCheck(check: () => Promise<BootloaderCheckReport>, reuseMs = CHECK_REUSE_MS, now: () => number = Date.now): () => Promise<BootloaderCheckReport> {
  let last: { at: number; report: Promise<BootloaderCheckReport> } | null = null;
  return () => {
    const at = now();
    if (last === null || at - last.at >= reuseMs) {
      const report = check();
      // A failed check is not kept: the next call tries again.
      report.catch(() => {
        if (last?.report === report) last = null;
      });
      last = { at, report };
    }
    return last.report;
  };
}
