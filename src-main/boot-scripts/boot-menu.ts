import type { BootClientInfo } from '../profiles/template-context.js';
import type { BootOverrideInput, BootOverrideResult } from './boot-override.js';

/**
 * More choices in the netboot default menu (the menu a machine without a
 * profile gets), from a later area: the netboot catalog's entries, grouped,
 * as netboot.xyz offers them. A choice comes back as `choice=<key>` on the
 * machine's script URL and is honoured only while the machine's own decision
 * is that menu, the rule a profile choice follows.
 */
export interface BootMenuItem {
  /** Identifies the choice in the script URL: letters, digits and `._:-` only. */
  key: string;
  /** What the menu shows. */
  label: string;
}

export interface BootMenuSection {
  title: string;
  items: readonly BootMenuItem[];
}

export interface BootMenuSource {
  /** The sections to show this machine (its architecture and firmware decide what can boot). */
  sections(client: BootClientInfo): Promise<readonly BootMenuSection[]>;
  /** The script of a choice this source offers the machine, or null when the key is not one of them. */
  choose(key: string, input: BootOverrideInput): Promise<BootOverrideResult | null>;
}

/** What a choice key may hold: it travels in a URL and in an iPXE script line. */
export const MENU_KEY_PATTERN = /^[A-Za-z0-9._:-]{1,120}$/;
