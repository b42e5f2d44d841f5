import { createHash } from 'node:crypto';
import { errorMessage, notFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import type { Alert, RaisedAlert } from './alerts-contract.js';

/** What an area contributes: its current alerts, computed from memory when asked. */
export type AlertSource = () => readonly RaisedAlert[] | Promise<readonly RaisedAlert[]>;

interface StoredAlerts {
  /** Alert id → fingerprint of the title and message dismissed. */
  dismissed: Record<string, string>;
}

const SEVERITY_ORDER = { error: 0, warning: 1 } as const;

/**
 * The alert centre (docs/alerts.md): every area's current problems in one
 * list, errors first. Nothing is stored but dismissals: an alert is a
 * condition that holds now (a failed service, a foreign DHCP server), so it
 * goes when the condition does. A dismissal hides one condition as it was
 * dismissed: it shows again when its title or message changes, and a
 * dismissal whose condition cleared is forgotten.
 */
export class AlertCenter {
  private readonly sources = new Map<string, AlertSource>();
  private readonly section: Section<StoredAlerts>;
  private readonly log: Logger;

  constructor(deps: { store: Store; log: Logger }) {
    this.section = deps.store.section<StoredAlerts>('alerts', { dismissed: {} });
    this.log = deps.log.scope('alerts');
  }

  /** Registers an area's alerts under `name` (one source per name). */
  addSource(name: string, source: AlertSource): void {
    this.sources.set(name, source);
  }

  /** The current alerts, errors first, then by source and title. */
  async current(options: { includeDismissed?: boolean } = {}): Promise<Alert[]> {
    const raised: RaisedAlert[] = [];
    for (const [name, source] of this.sources) {
      try {
        raised.push(...(await source()));
      } catch (err) {
        // A source that fails is itself worth knowing about, not a failed list.
        this.log.warn(`alert source ${name} failed: ${errorMessage(err)}`);
        raised.push({ id: `alerts.source.${name}`, severity: 'warning', source: name, title: `Could not check ${name} for problems`, message: errorMessage(err), since: null, link: null });
      }
    }
    const dismissed = this.section.get().dismissed;
    const alerts = raised.map((alert) => ({ ...alert, dismissed: dismissed[alert.id] === fingerprint(alert) }));
    await this.forgetCleared(dismissed, new Set(raised.map((alert) => alert.id)));
    alerts.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.source.localeCompare(b.source) || a.title.localeCompare(b.title));
    return options.includeDismissed ? alerts : alerts.filter((alert) => !alert.dismissed);
  }

  /** Hides an active alert as it is now; 404 when no such alert is active. */
  async dismiss(id: string): Promise<Alert> {
    const alert = (await this.current({ includeDismissed: true })).find((candidate) => candidate.id === id);
    if (!alert) throw notFound('alert', id);
    const stored = this.section.get();
    await this.section.set({ dismissed: { ...stored.dismissed, [id]: fingerprint(alert) } });
    return { ...alert, dismissed: true };
  }

  /** Dismissals of conditions that cleared: the condition coming back is news again. */
  private async forgetCleared(dismissed: Record<string, string>, active: ReadonlySet<string>): Promise<void> {
    const kept = Object.fromEntries(Object.entries(dismissed).filter(([id]) => active.has(id)));
    if (Object.keys(kept).length !== Object.keys(dismissed).length) await this.section.set({ dismissed: kept });
  }
}

function fingerprint(alert: Pick<RaisedAlert, 'title' | 'message'>): string {
  return createHash('sha256').update(`${alert.title}\n${alert.message}`).digest('hex').slice(0, 16);
}
