import type { BaselineLookups, BaselineRow, BaselineStep, TaskFacts } from '../../../src-main/baselines/baseline-types.js';
import type { BaselineAssignment } from '../../../src-main/baselines/baselines-contract.js';
import type { Host } from '../../../src-main/hosts/host-types.js';
import type { Profile } from '../../../src-main/profiles/profile-types.js';
import { FakeScriptsFacade } from '../../helpers/fake-scripts-facade.js';

/** A host record with the fields the baselines read; the rest filled with plain values. */
export function host(id: number, fields: Partial<Host> = {}): Host {
  return {
    id,
    mac: `52:54:00:00:00:${id.toString(16).padStart(2, '0')}`,
    hostname: `h${id}`,
    ip: null,
    profile_id: null,
    group: null,
    tags: [],
    description: '',
    arch: null,
    platform: null,
    enabled: true,
    boot_loader: null,
    discovered: false,
    last_boot_at: null,
    last_seen_ip: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

export function assignment(fields: Partial<BaselineAssignment> = {}): BaselineAssignment {
  return { host_ids: [], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: false, ...fields };
}

export function row(id: number, name: string, assign: Partial<BaselineAssignment> = {}, scripts: BaselineStep[] = []): BaselineRow {
  return { id, name, description: '', os_family: 'linux', assign: assignment(assign), scripts, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };
}

/** Lookups over in-memory hosts, profiles, tasks and a fake scripts facade. */
export class FakeLookups implements BaselineLookups {
  readonly scripts = new FakeScriptsFacade();
  readonly hostRows = new Map<number, Host>();
  readonly profileRows = new Map<number, Profile>();
  readonly taskRows = new Map<number, TaskFacts & { active: boolean }>();

  readonly hosts = {
    get: (id: number) => this.hostRows.get(id),
    findByMac: (mac: string) => [...this.hostRows.values()].find((h) => h.mac === mac),
  };
  readonly profiles = { get: (id: number) => this.profileRows.get(id) };
  readonly tasks = {
    get: (id: number) => this.taskRows.get(id),
    activeForMac: (mac: string) => [...this.taskRows.values()].find((task) => task.mac === mac && task.active),
  };

  addHost(h: Host): Host {
    this.hostRows.set(h.id, h);
    return h;
  }

  addProfile(id: number, name: string): void {
    this.profileRows.set(id, { id, name } as Profile);
  }

  addTask(id: number, mac: string, active = true, hostId: number | null = null): void {
    this.taskRows.set(id, { id, mac, host_id: hostId, active });
  }
}
