import { BUILTIN_SOURCE, type StoreFeedStatus, type StoreItemType } from '@contracts/community-store';

export const ITEM_TYPE_LABELS: Record<StoreItemType, string> = {
  'answer-template': 'Answer template',
  script: 'Script',
  baseline: 'Baseline',
  profile: 'Profile',
  overlay: 'Catalog overlay',
  bundle: 'Bundle',
};

export const FEED_STATE_COLORS: Record<StoreFeedStatus['state'], string> = {
  builtin: 'gray',
  ok: 'teal',
  stale: 'yellow',
  failed: 'red',
  disabled: 'gray',
};

export const ACTION_LABELS = { created: 'create', overwritten: 'overwrite', renamed: 'create renamed', skipped: 'skip' } as const;

export function sourceLabel(source: string): string {
  return source === BUILTIN_SOURCE ? 'built-in' : source;
}
