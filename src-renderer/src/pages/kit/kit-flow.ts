import type { KitImportResult, KitItemResult, KitSection } from '@contracts/kit';
import type { KitConflict } from '../../api/clients/kit-client.js';

export type KitResolution = 'skip' | 'overwrite' | 'rename';

export const SECTION_LABELS: Record<KitSection, string> = {
  settings: 'Settings',
  dns_records: 'DNS records',
  scripts: 'Scripts',
  answer_templates: 'Answer templates',
  profiles: 'Profiles',
  hosts: 'Hosts',
  baselines: 'Baselines',
  dhcp_reservations: 'DHCP reservations',
  access_lists: 'Access lists',
  bmc_configs: 'BMC configs',
  wol_schedules: 'WOL schedules',
};

export const ACTION_LABELS: Record<KitItemResult['action'], string> = {
  created: 'Create',
  updated: 'Update',
  unchanged: 'Unchanged',
  conflict: 'Conflict',
  skipped: 'Skip',
  renamed: 'Create renamed',
};

export const RESOLUTION_LABELS: Record<KitResolution, string> = { skip: 'Keep this server’s', overwrite: 'Overwrite with the kit’s', rename: 'Add under a new name' };

/**
 * Where the import stands. It always checks first (a dry run that lists
 * every item with what would change), asks about every conflict (nothing is
 * overwritten, skipped or renamed without a choice), and only then imports.
 */
export type KitPhase =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'plan'; plan: KitImportResult }
  | { step: 'importing'; plan: KitImportResult }
  | { step: 'done'; result: KitImportResult }
  | { step: 'failed'; message: string };

/** The items a choice is needed for: the plan's conflicts, and any the import itself reported (409). */
export function openConflicts(plan: KitImportResult, extra: readonly KitConflict[]): { key: string; name: string; section: KitSection; can_rename: boolean }[] {
  const out = new Map<string, { key: string; name: string; section: KitSection; can_rename: boolean }>();
  for (const item of plan.items) if (item.action === 'conflict') out.set(item.key, { key: item.key, name: item.name, section: item.section, can_rename: item.can_rename });
  for (const conflict of extra) if (!out.has(conflict.key)) out.set(conflict.key, { key: conflict.key, name: conflict.name, section: conflict.section, can_rename: conflict.section !== 'settings' });
  return [...out.values()];
}

/** Every conflict has a choice. */
export function allResolved(conflicts: readonly { key: string }[], resolutions: Readonly<Record<string, KitResolution>>): boolean {
  return conflicts.every((conflict) => resolutions[conflict.key] !== undefined);
}

/** A changed value as one short line ("(none)" for null). */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
