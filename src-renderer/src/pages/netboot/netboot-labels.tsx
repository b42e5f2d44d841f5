import { Badge, Tooltip } from '@mantine/core';
import type { AfterInstall, AnswerKind, FileAvailability, InstallTask, NetbootArch, OsFamily, TaskState } from '@contracts/netboot';

export const ANSWER_KIND_LABELS: Record<AnswerKind, string> = {
  preseed: 'Debian preseed',
  kickstart: 'Kickstart',
  autoinstall: 'Ubuntu autoinstall (cloud-init)',
  autoyast: 'AutoYaST XML',
  alpine: 'Alpine answer file',
  autounattend: 'Windows autounattend.xml',
};

export const FAMILY_LABELS: Record<OsFamily, string> = {
  debian: 'Debian',
  ubuntu: 'Ubuntu',
  redhat: 'Red Hat family',
  suse: 'SUSE',
  alpine: 'Alpine',
  arch: 'Arch',
  windows: 'Windows',
  utility: 'Utilities',
};

export const ARCH_LABELS: Record<NetbootArch, string> = { x86_64: 'x86_64', arm64: 'arm64' };

export const AFTER_INSTALL_LABELS: Record<AfterInstall, string> = {
  local_disk: 'Boot the local disk (install once)',
  host_profile: "Boot the host's profile again",
};

export const TASK_STATE_LABELS: Record<TaskState, string> = {
  pending: 'pending',
  booting: 'booting',
  installing: 'installing',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
};

const TASK_STATE_COLORS: Record<TaskState, string> = {
  pending: 'gray',
  booting: 'blue',
  installing: 'yellow',
  done: 'teal',
  failed: 'red',
  cancelled: 'gray',
  expired: 'gray',
};

/** What each availability means, for the badge's tooltip. */
export const AVAILABILITY_TEXT: Record<FileAvailability, { label: string; color: string; hint: string }> = {
  local: { label: 'local', color: 'teal', hint: 'All files are under the boot root: boots offline.' },
  image: { label: 'image', color: 'teal', hint: "The files come from an imported OS image: boots offline." },
  cached: { label: 'cached', color: 'blue', hint: 'The files are in the download cache: boots offline.' },
  remote: { label: 'remote', color: 'yellow', hint: 'The files are only on the mirror: downloaded at first boot (Prefetch to download them now).' },
  missing: { label: 'missing', color: 'red', hint: 'Some files are nowhere: put them under the boot root or set a mirror.' },
};

/** An availability word with its colour and what it means in a tooltip (the word carries the meaning in both themes). */
export function AvailabilityBadge({ availability, label, problem }: { availability: FileAvailability; label?: string; problem?: string | null }) {
  const text = AVAILABILITY_TEXT[availability];
  const tooltip = problem ? `${text.hint} ${problem}` : text.hint;
  return (
    <Tooltip label={tooltip} multiline w={280} withArrow>
      <Badge color={text.color} variant="light" radius="sm" style={{ textTransform: 'none' }} tabIndex={0} aria-label={`${label ? `${label}: ` : ''}${text.label}. ${tooltip}`}>
        {label ? `${label} · ${text.label}` : text.label}
      </Badge>
    </Tooltip>
  );
}

export function TaskStateBadge({ state }: { state: TaskState }) {
  return (
    <Badge color={TASK_STATE_COLORS[state]} variant="light" radius="sm" style={{ textTransform: 'none' }}>
      {TASK_STATE_LABELS[state]}
    </Badge>
  );
}

/** "debian 12 x86_64" */
export function taskTarget(task: Pick<InstallTask, 'distro' | 'version' | 'arch'>): string {
  return `${task.distro} ${task.version} ${task.arch}`;
}
