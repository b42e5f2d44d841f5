import { createHash } from 'node:crypto';
import type { AssignedBaseline, AssignedQuery, RenderedScript } from '../../../src-main/baselines/baselines-contract.js';
import type { BaselinesFacade } from '../../../src-main/baselines/baselines-facade.js';
import type { BaselineRuntimeService, RuntimeRateLimits } from '../../../src-main/baselines/runtime/index.js';
import type { ScriptKind } from '../../../src-main/scripts/scripts-contract.js';
import { loginHeaders } from '../../helpers/auth.js';
import { fakeAnswers, fakeCatalog, writeFakeEntryFiles } from '../../helpers/netboot-fakes.js';
import { createTestCore } from '../../helpers/test-core.js';
import type { TasksLab } from '../netboot/tasks-kit.js';

/** One step the fake resolver hands out; `sha256` defaults to the content's. */
export interface FakeStep {
  script_id: number;
  name: string;
  content: string;
  kind?: ScriptKind;
  continue_on_error?: boolean;
  timeout_seconds?: number;
  sha256?: string;
}

/** Stands for the baselines core: steps per host id (none: no baseline applies). */
export class FakeResolver implements Pick<BaselinesFacade, 'assigned'> {
  readonly steps = new Map<number, FakeStep[]>();
  readonly queries: AssignedQuery[] = [];

  async assigned(query: AssignedQuery): Promise<AssignedBaseline> {
    this.queries.push(query);
    const steps = query.host_id === undefined ? undefined : this.steps.get(query.host_id);
    if (!steps || query.host_id === undefined) return { baseline: null, rule: 'none', reason: 'no host, group, tag, task, profile or default matched', host: null, scripts: [] };
    const scripts: RenderedScript[] = steps.map((step, index) => ({
      position: index + 1,
      script_id: step.script_id,
      name: step.name,
      kind: step.kind ?? 'sh',
      version: 1,
      content: step.content,
      sha256: step.sha256 ?? createHash('sha256').update(step.content, 'utf8').digest('hex'),
      continue_on_error: step.continue_on_error ?? false,
      timeout_seconds: step.timeout_seconds ?? 60,
    }));
    const stamp = '2030-01-01T00:00:00.000Z';
    return {
      baseline: {
        id: 100 + query.host_id,
        name: `baseline of host ${query.host_id}`,
        description: '',
        os_family: 'linux',
        assign: { host_ids: [query.host_id], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: false },
        scripts: scripts.map((script) => ({ position: script.position, script_id: script.script_id, script_name: script.name, kind: script.kind, variables: {}, continue_on_error: script.continue_on_error, timeout_seconds: script.timeout_seconds })),
        created_at: stamp,
        updated_at: stamp,
      },
      rule: 'host',
      reason: `host ${query.host_id}`,
      host: { id: query.host_id, mac: '52:54:00:00:00:00', hostname: null },
      scripts,
    };
  }
}

export interface RuntimeLab extends TasksLab {
  runtime: BaselineRuntimeService;
  resolver: FakeResolver;
  admin: Record<string, string>;
}

/** A real core on loopback (fake netboot catalog and answer renderer, as tasks-kit) with the baselines runtime on a fake resolver. */
export async function runtimeLab(options: { limits?: Partial<RuntimeRateLimits> } = {}): Promise<RuntimeLab> {
  const clock = { now: Date.now() };
  const answers = fakeAnswers();
  const resolver = new FakeResolver();
  const t = await createTestCore({
    netboot: { catalogReader: fakeCatalog(), answerRenderer: answers, now: () => new Date(clock.now) },
    baselines: { runtimeResolver: resolver, ...(options.limits ? { runtimeLimits: options.limits } : {}) },
  });
  await t.core.kernel.services.start('http');
  await writeFakeEntryFiles(t.core.area('boot-files').files.root);
  const operator = await loginHeaders(t.core, 'operator');
  const viewer = await loginHeaders(t.core, 'viewer');
  const admin = await loginHeaders(t.core, 'admin');
  return { t, answers, base: t.core.url(), clock, operator, viewer, admin, runtime: t.core.area('baselines').runtime, resolver, close: () => t.close() };
}
