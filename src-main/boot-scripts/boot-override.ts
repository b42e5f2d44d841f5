import type { Host } from '../hosts/host-types.js';
import type { BootClientInfo, ServerEndpoint } from '../profiles/template-context.js';
import type { BootAction, BootReason } from './boot-scripts-contract.js';
import type { BootProgram } from './boot-program.js';

/**
 * A later area's say over what one machine boots, consulted before the
 * normal decision (host, group, netboot default) in both the boot path and
 * the boot-config preview. The netboot area's install tasks use it: a machine
 * with an active task boots its installer, one whose task finished with
 * "install once" boots its local disk. Only the access lists come first.
 */
export interface BootOverrideInput {
  /** The host record (after this boot was recorded), or null for an unknown machine. */
  host: Host | null;
  /** Canonical MAC. */
  mac: string;
  client: BootClientInfo;
  server: ServerEndpoint & { name: string };
}

export interface BootOverrideResult {
  action: Extract<BootAction, 'install' | 'local'>;
  reason: BootReason;
  /** One sentence for people (preview, events). */
  reason_text: string;
  /** The final iPXE script, served as it is (not a template). */
  script: string;
  /** Set when the script is a fallback that shows this error on the machine. */
  error: string | null;
  /**
   * The same boot for machines on GRUB (boot-program.ts); absent: GRUB
   * machines are told this needs iPXE. Set with `script`, from the same plan.
   */
  program?: BootProgram;
  /** Extra detail of the boot.script_served event (no secrets). */
  detail?: Record<string, unknown>;
  /** Called after the script was served to the machine; never for a preview. */
  served?: () => Promise<void>;
}

/** Resolves null when it has no opinion about this machine. */
export type BootOverride = (input: BootOverrideInput) => Promise<BootOverrideResult | null>;
