import type { EffectiveBoot } from '../hosts/hosts-contract.js';
import type { BootDecision } from './boot-resolver.js';

/** Where a decision's reason places it for people (hosts-contract EFFECTIVE_BOOT_SOURCES). */
const SOURCE: Record<BootDecision['reason'], EffectiveBoot['source']> = {
  host_assignment: 'host',
  group_default: 'group',
  global_default: 'global_default',
  host_disabled: 'disabled',
  menu_choice: 'host',
  access_denied: 'access_lists',
  netboot_task: 'task',
};

/**
 * A boot decision as host reads show it (`effective_boot`): what the machine
 * boots next, from where, in one line — so a host whose group default
 * reinstalls it says so in the hosts list instead of a grey "default".
 */
export function effectiveBoot(decision: BootDecision, groupName: string | null): EffectiveBoot {
  const profile = decision.profile;
  const source = SOURCE[decision.reason];
  const where = source === 'group' ? ` (group "${groupName ?? ''}" default)` : source === 'global_default' ? ' (netboot default)' : '';
  const text =
    decision.action === 'profile' && profile
      ? `profile "${profile.name}"${where}`
      : decision.action === 'menu'
        ? `the boot menu${where}`
        : decision.action === 'denied'
          ? 'nothing: denied by the access lists'
          : source === 'disabled'
            ? 'its local disk (host disabled)'
            : `its local disk${where}`;
  return { action: decision.action, profile_id: profile?.id ?? null, profile_name: profile?.name ?? null, task_id: null, source, text };
}
