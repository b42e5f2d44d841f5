import { nowIso } from '../core/time.js';
import type { Store } from '../store/store.js';
import type { Section } from '../store/section.js';
import type { FirstRunAction, FirstRunState } from './system-contract.js';

/** What is stored: when the wizard was finished or skipped (null: not yet). */
interface FirstRunRecord {
  completed_at: string | null;
  skipped_at: string | null;
}

/** Who still has a generated password (the auth area's user directory). */
export interface GeneratedPasswordSource {
  withGeneratedPassword(): readonly unknown[];
}

/**
 * The first-run wizard's state (section `first_run` of config.json): the UI
 * shows the wizard to admins until it is completed or skipped, and asks for a
 * new admin password while the generated one is in use.
 */
export class FirstRun {
  private readonly section: Section<FirstRunRecord>;
  private readonly users: GeneratedPasswordSource;
  private readonly now: () => Date;

  constructor(options: { store: Store; users: GeneratedPasswordSource; now?: () => Date }) {
    this.section = options.store.section<FirstRunRecord>('first_run', { completed_at: null, skipped_at: null });
    this.users = options.users;
    this.now = options.now ?? (() => new Date());
  }

  view(): FirstRunState {
    const record = this.section.get();
    return {
      completed: record.completed_at !== null,
      skipped: record.skipped_at !== null,
      must_change_password: this.users.withGeneratedPassword().length > 0,
    };
  }

  /** `complete` marks the wizard done; `skip` hides it without marking it done (a later complete still counts). */
  async record(action: FirstRunAction): Promise<FirstRunState> {
    const current = this.section.get();
    const at = nowIso(this.now());
    await this.section.set(action === 'complete' ? { ...current, completed_at: current.completed_at ?? at } : { ...current, skipped_at: current.skipped_at ?? at });
    return this.view();
  }
}
