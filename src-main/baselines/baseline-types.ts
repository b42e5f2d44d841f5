import type { Host } from '../hosts/host-types.js';
import type { Profile } from '../profiles/profile-types.js';
import type { Script, ScriptKind } from '../scripts/scripts-contract.js';
import type { ScriptsFacade } from '../scripts/scripts-facade.js';
import type { Row } from '../store/collection.js';
import type { BaselineAssignment } from './baselines-contract.js';
import type { OsFamily } from '../scripts/scripts-contract.js';

/**
 * One stored step of a baseline (collection `baselines`), with its defaults
 * filled in. `script_name` and `kind` are the script's as of the last write:
 * reads show the script's current ones, these only stand in when the script
 * was force-deleted since (so the step can still be named).
 */
export interface BaselineStep {
  script_id: number;
  /** Overrides of the script's declared variables (only names it declares). */
  variables: Record<string, string>;
  continue_on_error: boolean;
  timeout_seconds: number;
  script_name: string;
  kind: ScriptKind;
}

/** A stored baseline (collection `baselines`). */
export interface BaselineRow extends Row {
  name: string;
  description: string;
  os_family: OsFamily;
  assign: BaselineAssignment;
  scripts: BaselineStep[];
}

/** The install task facts a baseline needs (the netboot tasks' rows have more). */
export interface TaskFacts {
  id: number;
  mac: string;
  host_id: number | null;
}

/** What the baselines read of the other areas (narrow, so unit tests pass small fakes). */
export interface BaselineLookups {
  scripts: Pick<ScriptsFacade, 'get'>;
  hosts: { get(id: number): Host | undefined; findByMac(mac: string): Host | undefined };
  profiles: { get(id: number): Profile | undefined };
  tasks: { get(id: number): TaskFacts | undefined; activeForMac(mac: string): TaskFacts | undefined };
}

export type { Script };
