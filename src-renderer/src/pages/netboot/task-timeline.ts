import { FINAL_TASK_STATES, type InstallTask, type TaskTimelineItem } from '@contracts/netboot';

export type PhaseId = 'dhcp' | 'script' | 'files' | 'answer' | 'callbacks' | 'done';
export type PhaseStatus = 'reached' | 'waiting' | 'failed';

export interface Phase {
  id: PhaseId;
  label: string;
  status: PhaseStatus;
  /** When the phase was first reached. */
  at: string | null;
  /** How many timeline items belong to it (downloads, callbacks). */
  count: number;
}

const LABELS: Record<PhaseId, string> = {
  dhcp: 'DHCP',
  script: 'Boot script',
  files: 'Kernel and initrd downloads',
  answer: 'Answer fetched',
  callbacks: 'Installer callbacks',
  done: 'Done',
};

/**
 * Which phase a timeline item belongs to, by its event kind: the DHCP lease,
 * the boot script served, TFTP/HTTP transfers of the kernel and initrds, the
 * answer file fetched, the installer's callbacks. Task state changes belong
 * to no phase (they move the last one).
 */
export function phaseOf(item: TaskTimelineItem): PhaseId | null {
  const kind = item.kind;
  if (kind.startsWith('dhcp.')) return 'dhcp';
  if (kind.startsWith('boot.script') || kind === 'boot.ipxe' || kind === 'boot.request') return 'script';
  if (kind.startsWith('tftp.') || kind.startsWith('http.') || kind.startsWith('boot.file') || kind.includes('transfer') || kind.includes('download')) return 'files';
  if (kind === 'netboot.answer_fetched') return 'answer';
  if (kind === 'netboot.callback') return 'callbacks';
  return null;
}

/** The phases of an install from the task's timeline: DHCP → boot script → downloads → answer → callbacks → done. */
export function taskPhases(task: Pick<InstallTask, 'state' | 'timeline' | 'finished_at'>): Phase[] {
  const order: PhaseId[] = ['dhcp', 'script', 'files', 'answer', 'callbacks'];
  const phases: Phase[] = order.map((id) => {
    const items = task.timeline.filter((item) => phaseOf(item) === id);
    return { id, label: LABELS[id], status: items.length > 0 ? 'reached' : 'waiting', at: items[0]?.at ?? null, count: items.length };
  });
  const final = FINAL_TASK_STATES.includes(task.state);
  const done: Phase = {
    id: 'done',
    label: task.state === 'done' ? LABELS.done : final ? `Ended: ${task.state}` : LABELS.done,
    status: task.state === 'done' ? 'reached' : final ? 'failed' : 'waiting',
    at: final ? task.finished_at : null,
    count: 0,
  };
  // A later phase implies the earlier ones happened even if their events were not recorded (pruned, another server).
  const lastReached = phases.map((phase) => phase.status).lastIndexOf('reached');
  return [...phases.map((phase, index) => (index < lastReached && phase.status === 'waiting' ? { ...phase, status: 'reached' as const } : phase)), done];
}
