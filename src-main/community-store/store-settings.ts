import { validationError, type FieldError } from '../core/errors.js';
import type { Section } from '../store/section.js';
import type { Store } from '../store/store.js';
import { BUILTIN_SOURCE, type StoreSettings } from './community-store-contract.js';
import { parseEd25519PublicKey } from './feed-signature.js';
import { feedUrlProblem } from './feed-http.js';

export const STORE_SETTINGS_DEFAULTS: StoreSettings = { feeds: [], timeout_seconds: 10 };

/** The problems of a settings value beyond its schema: unique names, URL policy, a way to verify each feed. */
export function storeSettingsProblems(value: StoreSettings): FieldError[] {
  const problems: FieldError[] = [];
  const names = new Set<string>();
  value.feeds.forEach((feed, index) => {
    const field = (name: string) => `body.feeds[${index}].${name}`;
    if (feed.name === BUILTIN_SOURCE) problems.push({ field: field('name'), message: `"${BUILTIN_SOURCE}" names the shipped catalog` });
    if (names.has(feed.name)) problems.push({ field: field('name'), message: `feed "${feed.name}" is listed twice` });
    names.add(feed.name);
    const urlProblem = feedUrlProblem(feed.url);
    if (urlProblem) problems.push({ field: field('url'), message: urlProblem });
    if (feed.public_key === undefined && feed.index_sha256 === undefined) {
      problems.push({ field: field('public_key'), message: 'a feed needs public_key (Ed25519 signature of index.json) or index_sha256 (pinned index): an unverified feed would bring unchecked code onto machines' });
    }
    if (feed.public_key !== undefined) {
      try {
        parseEd25519PublicKey(feed.public_key);
      } catch (err) {
        problems.push({ field: field('public_key'), message: err instanceof Error ? err.message : String(err) });
      }
    }
  });
  return problems;
}

/** The `store` settings section (feeds and their timeout), in config.json like the other settings. */
export class StoreSettingsStore {
  private readonly section: Section<StoreSettings>;
  private readonly listeners = new Set<(next: StoreSettings) => void>();

  constructor(store: Store) {
    this.section = store.section<StoreSettings>('store', STORE_SETTINGS_DEFAULTS);
  }

  get(): StoreSettings {
    return this.section.get();
  }

  /** Checks and stores the whole value (the schema was checked by the route). */
  async put(value: StoreSettings): Promise<StoreSettings> {
    const problems = storeSettingsProblems(value);
    if (problems.length > 0) throw validationError(problems);
    const stored = await this.section.set(structuredClone(value));
    for (const listener of this.listeners) listener(stored);
    return stored;
  }

  onChange(listener: (next: StoreSettings) => void): void {
    this.listeners.add(listener);
  }
}
