import type { EventLog } from '../events/event-log.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import type { CheckArchitectureId, IgnoredArchitectures } from './boot-files-contract.js';

/**
 * The architectures an operator chose to ignore in the boot-loader check
 * (issue 18): a site with no RISC-V or LoongArch machines should not keep
 * reading about their missing iPXE builds. Their problems become info and
 * raise no alert; the check still lists them, last.
 */
export class CheckIgnores {
  private readonly section: Section<IgnoredArchitectures>;

  constructor(
    store: Store,
    private readonly events: EventLog,
    private readonly onChange: () => void,
  ) {
    this.section = store.section<IgnoredArchitectures>('bootloader_check', { architectures: [] });
  }

  list(): readonly CheckArchitectureId[] {
    return this.section.get().architectures;
  }

  /** Replaces the list (stored before it answers); an event names what changed. */
  async set(architectures: readonly CheckArchitectureId[]): Promise<IgnoredArchitectures> {
    const before = new Set(this.list());
    const saved = await this.section.set({ architectures: [...new Set(architectures)] });
    const now = new Set(saved.architectures);
    const added = saved.architectures.filter((id) => !before.has(id));
    const removed = [...before].filter((id) => !now.has(id));
    this.onChange();
    if (added.length + removed.length > 0) {
      const parts = [added.length > 0 ? `ignores ${added.join(', ')}` : null, removed.length > 0 ? `no longer ignores ${removed.join(', ')}` : null].filter((part) => part !== null);
      this.events.emit({ kind: 'bootloader.check.ignored', message: `the boot-loader check ${parts.join(' and ')}`, detail: { added, removed, architectures: saved.architectures } });
    }
    return saved;
  }
}
