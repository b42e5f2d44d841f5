import type { Host } from '../hosts/host-types.js';
import { hostLabel } from '../hosts/host-label.js';
import type { Profile } from '../profiles/profile-types.js';
import type { NetbootSettings } from '../settings/settings-schemas.js';
import type { BootAction, BootReason } from './boot-scripts-contract.js';

export { BOOT_ACTIONS, BOOT_REASONS, type BootAction, type BootReason } from './boot-scripts-contract.js';

export interface BootDecision {
  action: BootAction;
  /** Set when action is `profile`. */
  profile: Profile | null;
  reason: BootReason;
  /** One sentence for people: the UI shows it next to the preview. */
  reason_text: string;
}

export interface ProfileDirectory {
  get(id: number): Profile | undefined;
  all(): readonly Profile[];
  defaultForGroup(group: string): Profile | undefined;
}

/** How deep a menu may lead to other menus when checking a menu choice. */
const MAX_MENU_DEPTH = 16;

/**
 * The boot decision for a machine, in this order: a disabled host boots
 * locally; a host's own profile; its group's default profile; then the
 * netboot settings for everything else (menu, local disk or a profile).
 */
export function decideBoot(host: Host | null, profiles: ProfileDirectory, netboot: NetbootSettings): BootDecision {
  if (host && !host.enabled) {
    return { action: 'local', profile: null, reason: 'host_disabled', reason_text: `host ${hostLabel(host)} is disabled: it boots from its local disk` };
  }
  if (host?.profile_id !== null && host?.profile_id !== undefined) {
    const profile = profiles.get(host.profile_id);
    if (profile) {
      return { action: 'profile', profile, reason: 'host_assignment', reason_text: `host ${hostLabel(host)} is assigned profile "${profile.name}"` };
    }
  }
  if (host?.group) {
    const profile = profiles.defaultForGroup(host.group);
    if (profile) {
      return { action: 'profile', profile, reason: 'group_default', reason_text: `group "${host.group}" defaults to profile "${profile.name}"` };
    }
  }
  const who = host ? `host ${hostLabel(host)} has no profile of its own nor a group default` : 'the machine is not a known host';
  if (netboot.default_action === 'local') {
    return { action: 'local', profile: null, reason: 'global_default', reason_text: `${who}, and the netboot default is the local disk` };
  }
  if (netboot.default_action === 'profile' && netboot.default_profile_id !== null) {
    const profile = profiles.get(netboot.default_profile_id);
    if (profile) {
      return { action: 'profile', profile, reason: 'global_default', reason_text: `${who}, and the netboot default is profile "${profile.name}"` };
    }
    return {
      action: 'menu',
      profile: null,
      reason: 'global_default',
      reason_text: `${who}, and the netboot default profile ${netboot.default_profile_id} does not exist, so the boot menu is shown instead`,
    };
  }
  return { action: 'menu', profile: null, reason: 'global_default', reason_text: `${who}, and the netboot default is the boot menu` };
}

/**
 * A menu choice (`profile=<id>` in the per-host URL) is honoured only when
 * the machine's own decision offers that profile: the global menu offers
 * every profile, a menu profile its entries (and their menus' entries).
 * Anything else returns null and the machine gets its own decision.
 */
export function applyMenuChoice(base: BootDecision, chosenId: number, profiles: ProfileDirectory): BootDecision | null {
  const chosen = profiles.get(chosenId);
  if (!chosen) return null;
  const offered = base.action === 'menu' || (base.profile !== null && menuOffers(base.profile, chosenId, profiles, 0));
  if (!offered) return null;
  return { action: 'profile', profile: chosen, reason: 'menu_choice', reason_text: `chosen from the boot menu (${base.reason_text})` };
}

function menuOffers(menu: Profile, chosenId: number, profiles: ProfileDirectory, depth: number): boolean {
  if (depth > MAX_MENU_DEPTH || !menu.menu) return false;
  for (const entry of menu.menu.entries) {
    if (entry.profile_id === chosenId) return true;
    const nested = profiles.get(entry.profile_id);
    if (nested && menuOffers(nested, chosenId, profiles, depth + 1)) return true;
  }
  return false;
}
