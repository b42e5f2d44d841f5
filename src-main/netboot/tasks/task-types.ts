import type { Row } from '../../store/collection.js';
import type { AfterInstall, AnswerKind, NetbootArch, TaskState, Variables } from '../netboot-contract.js';

/** Who moved a task: an operator (API), the boot path, the installer's callback, or the expiry timer. */
export type TransitionSource = 'api' | 'boot' | 'answer' | 'callback' | 'expiry';

/** One state change, kept on the task (its own timeline). */
export interface TaskTransition {
  from: TaskState | null;
  to: TaskState;
  at: string;
  message: string;
  source: TransitionSource;
}

/** A stored install task (collection `netboot_tasks`). The token is kept only sealed (task-token.ts). */
export interface TaskRow extends Row {
  host_id: number | null;
  mac: string;
  distro: string;
  version: string;
  arch: NetbootArch;
  template_id: number | null;
  template_version: number | null;
  /** The entry's answer kind when the task was made (null: an entry without an answer file, e.g. memtest86+). */
  answer_kind: AnswerKind | null;
  variables: Variables;
  state: TaskState;
  message: string;
  after_install: AfterInstall;
  expiry_minutes: number;
  expires_at: string;
  started_at: string | null;
  /** The address the machine fetched its installer from (its own address for by-mac when our DHCP server leased it none). */
  boot_ip: string | null;
  finished_at: string | null;
  /** SecretBox-sealed token (purpose bound to the task id). */
  token_sealed: string;
  /** The newest event id when the task was created or restarted: its timeline reads the event log after it. */
  events_after_id: number;
  transitions: TaskTransition[];
}

/** Transitions kept per task (the oldest are dropped; the event log keeps them all). */
export const MAX_TRANSITIONS = 64;
