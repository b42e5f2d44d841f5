import type { BootOverride, BootOverrideInput, BootOverrideResult } from '../../boot-scripts/boot-override.js';
import { localBootScript, renderFailedScript } from '../../boot-scripts/fallback-script.js';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { EventLog } from '../../events/event-log.js';
import { TemplateError } from '../../templates/template-engine.js';
import type { Firmware } from '../netboot-contract.js';
import type { CatalogReader } from '../netboot-ports.js';
import { unsupportedFirmwareScript } from './installer-script.js';
import { taskLabel, type InstallTaskService, type TaskFiles } from './install-task-service.js';
import { leasedAddress, sameAddress, type LeaseLookup } from './machine-address.js';
import type { TaskInstaller } from './task-installer.js';
import type { TaskRow } from './task-types.js';

export interface TaskBootDeps {
  tasks: InstallTaskService;
  installer: TaskInstaller;
  catalog: Pick<CatalogReader, 'supports'>;
  /** Whether the entry's boot files can be had now; absent: not checked. */
  files?: Pick<TaskFiles, 'problem'>;
  leases: LeaseLookup;
  events: EventLog;
  log: Logger;
  /** Renders the task's answer ahead once its installer went out (TaskRuntime.prerender). */
  prerender?: (row: TaskRow, ip: string) => void;
}

/** iPXE `${platform}` → the catalog's firmware; null when the machine did not say (the check is skipped). */
export function firmwareOf(platform: string | null): Firmware | null {
  if (platform === 'efi') return 'uefi';
  if (platform === 'pcbios') return 'bios';
  return null;
}

/**
 * The install tasks' say over what a machine boots (the boot scripts'
 * override hook, docs/netboot.md "Precedence"): an active task's installer;
 * after a task finished `done` with `after_install: local_disk`, the local
 * disk; otherwise nothing (the normal decision). A failed, cancelled or
 * expired task no longer overrides anything.
 */
export function taskBootOverride(deps: TaskBootDeps): BootOverride {
  return async (input) => {
    let active = deps.tasks.activeForMac(input.mac);
    if (active) active = await deps.tasks.expireIfOverdue(active);
    if (active && (active.state === 'pending' || active.state === 'booting' || active.state === 'installing')) return installerFor(deps, active, input);
    const latest = deps.tasks.latestForMac(input.mac);
    if (latest?.state === 'done' && latest.after_install === 'local_disk') {
      const reason = `install task ${latest.id} (${taskLabel(latest)}) is done: the machine boots its local disk`;
      return {
        action: 'local',
        reason: 'netboot_task',
        reason_text: reason,
        script: localBootScript(reason),
        program: { kind: 'local', message: reason },
        error: null,
        detail: { task_id: latest.id },
      };
    }
    return null;
  };
}

async function installerFor(deps: TaskBootDeps, row: TaskRow, input: BootOverrideInput): Promise<BootOverrideResult> {
  const detail = { task_id: row.id };
  const base = { action: 'install' as const, reason: 'netboot_task' as const, detail };
  // The script carries the task's token: when our DHCP server leased this MAC an address, only that address gets it.
  const leased = leasedAddress(deps.leases, input.mac, Date.now());
  if (leased !== null && !sameAddress(leased, input.client.ip)) {
    const error = `the script of install task ${row.id} is served only to ${leased}, the address leased to ${input.mac}; asked from ${input.client.ip}`;
    return { ...base, reason_text: `install task ${row.id}: refused to ${input.client.ip}`, script: renderFailedScript(`install task ${row.id}`, error), error };
  }
  let label = taskLabel(row);
  try {
    const installer = await deps.installer.build(row, input.server, input.host);
    label = installer.label;
    const reasonText = `install task ${row.id}: ${label}`;
    const firmware = firmwareOf(input.client.platform);
    if (firmware !== null && !deps.catalog.supports(installer.resolved, firmware)) {
      // Kept pending (the machine can be booted in the other mode, or the task changed); the warning says why it does not start.
      const reason = `${label} does not boot with ${firmware === 'bios' ? 'legacy BIOS' : 'UEFI'} (supports ${installer.resolved.arch.firmware.join(', ')})`;
      return {
        ...base,
        reason_text: `${reasonText}, but ${reason}`,
        script: unsupportedFirmwareScript(row.id, reason),
        program: { kind: 'message', message: `install task ${row.id} cannot start on this machine: ${reason}. The task stays pending.`, retry: false },
        error: null,
        detail: { ...detail, unsupported_firmware: firmware },
        served: async () => {
          deps.events.emit({
            kind: 'netboot.task.firmware_unsupported',
            level: 'warn',
            message: `install task ${row.id} cannot start on ${input.mac}: ${reason}; the task stays ${row.state}`,
            mac: input.mac,
            ip: input.client.ip,
            ...(row.host_id !== null ? { host_id: row.host_id } : {}),
            detail: { task_id: row.id, firmware, supported: installer.resolved.arch.firmware },
          });
        },
      };
    }
    const source = installer.plan.source;
    // Said after the script went out (never for a preview, which emits nothing): a linked image was not usable, the entry's own files boot instead.
    const reportFallback = () => {
      if (source.fallback === null) return;
      deps.log.warn(`install task ${row.id}: ${source.fallback}`);
      deps.events.emit({
        kind: 'netboot.task.image_fallback',
        level: 'warn',
        message: `install task ${row.id} (${label}): ${source.fallback}`,
        mac: input.mac,
        ip: input.client.ip,
        ...(row.host_id !== null ? { host_id: row.host_id } : {}),
        detail: { task_id: row.id, boot_source: source.kind, image_id: source.image_id, reason: source.fallback },
      });
    };
    // Files missing (or only remote while offline): the machine shows what to copy or download and retries, instead of a kernel download that fails.
    // An image's own kernel and initrd are served from its mount: the download cache is not asked.
    const fromImage = installer.plan.local !== null && installer.plan.local.files !== null;
    const filesProblem = fromImage ? null : ((await deps.files?.problem(installer.resolved)) ?? null);
    if (filesProblem !== null) {
      deps.log.warn(`install task ${row.id}: ${input.mac} cannot boot its installer yet: ${filesProblem}`);
      const problem = source.fallback === null ? filesProblem : `${source.fallback}; ${filesProblem}`;
      return { ...base, reason_text: `${reasonText}, but its boot files are not here`, script: renderFailedScript(`install task ${row.id}`, problem), error: problem };
    }
    const script = deps.installer.script(row, installer, input.server);
    return {
      ...base,
      reason_text: source.kind === 'image' ? `${reasonText}, from OS image ${source.image_id} (${source.image_name})` : reasonText,
      script,
      program: deps.installer.program(row, installer, input.server),
      error: null,
      detail: { ...detail, boot_source: source.kind, ...(source.image_id !== null ? { image_id: source.image_id } : {}) },
      served: async () => {
        reportFallback();
        const platform = input.client.platform ?? 'unknown firmware';
        const from = source.kind === 'image' ? `from OS image ${source.image_id}` : 'from the catalog entry (boot root, download cache or mirror)';
        await deps.tasks.transition(row.id, 'booting', `installer served to ${input.client.ip} (${platform}), ${from}`, 'boot', input.client.ip).catch((err: unknown) => {
          // The task changed meanwhile (cancelled, or the installer already called back): the script is out, nothing to undo.
          if (!(err instanceof AppError && err.code === 'INVALID_STATE')) throw err;
        });
        deps.prerender?.(row, input.client.ip);
      },
    };
  } catch (err) {
    if (!isBuildFailure(err)) throw err;
    const message = errorMessage(err);
    deps.log.warn(`install task ${row.id}: the installer for ${input.mac} could not be built: ${message}`);
    return { ...base, reason_text: `install task ${row.id}: ${label}`, script: renderFailedScript(`install task ${row.id}`, message), error: message };
  }
}

/** What the machine should see and retry after: a template fault or bound, a busy renderer, an entry gone from the catalog, a command line iPXE cannot carry. */
function isBuildFailure(err: unknown): boolean {
  return err instanceof TemplateError || err instanceof AppError || (err instanceof Error && /cannot be decrypted/.test(err.message));
}
