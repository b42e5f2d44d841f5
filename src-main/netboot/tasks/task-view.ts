import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../hosts/host-types.js';
import type { InstallTask, TaskBootSource, TaskTimelineItem } from '../netboot-contract.js';
import type { InstallTaskService } from './install-task-service.js';
import { machineAddresses, type LeaseLookup } from './machine-address.js';
import type { TaskServer } from './task-installer.js';
import { taskTimeline } from './task-timeline.js';
import { taskUrls } from './task-urls.js';
import type { TaskRow } from './task-types.js';

export interface TaskViewDeps {
  tasks: InstallTaskService;
  events: Pick<EventLog, 'since'>;
  hosts: { get(id: number): Host | undefined; findByMac(mac: string): Host | undefined };
  leases: LeaseLookup;
  /** The server as a machine at `clientIp` reaches it (the answer URL's base). */
  server(clientIp: string): TaskServer;
  /** Where the task's installer comes from now (an OS image or the entry's files); undefined when the entry is gone. */
  bootSource?: (row: TaskRow) => Promise<TaskBootSource | undefined>;
}

export interface ViewOptions {
  /** Operators see the answer URL (it holds the token); viewers get it left out. */
  operator: boolean;
  /**
   * One task: its timeline reads the event log. Lists carry only the task's
   * own transitions (reading the log for every row of a page costs too much).
   */
  full: boolean;
}

/** A task as the API shows it. The sealed token and bookkeeping stay inside. */
export async function taskView(deps: TaskViewDeps, row: TaskRow, options: ViewOptions): Promise<InstallTask> {
  const host = (row.host_id !== null ? deps.hosts.get(row.host_id) : undefined) ?? deps.hosts.findByMac(row.mac) ?? null;
  const ips = machineAddresses(deps.leases, row.mac, host, Date.now(), row.boot_ip);
  const timeline: TaskTimelineItem[] = taskTimeline(row, options.full ? deps.events.since(row.events_after_id) : [], ips);
  const view: InstallTask = {
    id: row.id,
    host_id: row.host_id,
    mac: row.mac,
    distro: row.distro,
    version: row.version,
    arch: row.arch,
    template_id: row.template_id,
    template_version: row.template_version,
    variables: { ...row.variables },
    state: row.state,
    message: row.message,
    after_install: row.after_install,
    created_at: row.created_at,
    updated_at: row.updated_at,
    expires_at: row.expires_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    timeline,
  };
  const bootSource = await deps.bootSource?.(row);
  if (bootSource) view.boot_source = bootSource;
    if (options.operator) view.answer_url = row.answer_kind === null ? null : await answerUrl(deps, row, ips[0] ?? '0.0.0.0');
  return view;
}

async function answerUrl(deps: TaskViewDeps, row: TaskRow, clientIp: string): Promise<string | null> {
  try {
    return taskUrls(deps.server(clientIp).base_url, row.id, await deps.tasks.token(row)).answer;
  } catch {
    // A sealed token the key file no longer opens: the task needs a restart (a new token); the view still loads.
    return null;
  }
}
