import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStoreDir, loadBuiltinCatalog } from '../../../src-main/community-store/builtin-catalog.js';
import { StoreTemplatePayloadSchema, StoreProfilePayloadSchema, StoreOverlayPayloadSchema, StoreBaselinePayloadSchema } from '../../../src-main/community-store/import-targets.js';
import { referencesOf, schemaErrors, type StoreItemFile } from '../../../src-main/community-store/item-format.js';
import type { AnswerTemplateWrite, OverlayFields } from '../../../src-main/netboot/netboot-contract.js';
import type { ProfileInput } from '../../../src-main/profiles/index.js';
import { ScriptCreateSchema, type ScriptCreate } from '../../../src-main/scripts/scripts-contract.js';
import type { TestCore } from '../../helpers/test-core.js';
import { storeCore, type StoreCore } from './store-kit.js';

/*
 * Every shipped item passes the validators its import uses: answer templates
 * the netboot area's write checks and the kind's own validation, profiles
 * and overlays their areas' checks; scripts render with their defaults and
 * pass sh -n / bash -n (the scripts area's own check is built in parallel),
 * baselines reference scripts they require.
 */

let s: StoreCore;
let t: TestCore;
let items: StoreItemFile[];

beforeAll(async () => {
  s = await storeCore();
  t = s.t;
  items = [...(await loadBuiltinCatalog(defaultStoreDir())).items.values()];
});
afterAll(async () => t.close());

const ofType = (type: StoreItemFile['type']) => items.filter((item) => item.type === type);

describe('shipped store items', () => {
  it('has at least twelve items of every type', () => {
    expect(items.length).toBeGreaterThanOrEqual(12);
    for (const type of ['answer-template', 'script', 'baseline', 'profile', 'overlay', 'bundle'] as const) expect(ofType(type).length, type).toBeGreaterThan(0);
  });

  it('answer templates pass the netboot write checks and their kind\'s validation', async () => {
    const answers = t.core.area('netboot').answers;
    for (const item of ofType('answer-template')) {
      expect(schemaErrors(StoreTemplatePayloadSchema, item.payload, item.id)).toEqual([]);
      const payload = item.payload as AnswerTemplateWrite & { kind: NonNullable<AnswerTemplateWrite['kind']>; content: string };
      await answers.validateWrite(payload);
      const result = await answers.validate({ kind: payload.kind, content: payload.content, ...(payload.variables ? { variables: payload.variables } : {}) });
      expect(result.issues.filter((issue) => issue.severity === 'error'), item.id).toEqual([]);
    }
  });

  it('profiles pass the profiles area\'s checks', async () => {
    for (const item of ofType('profile')) {
      expect(schemaErrors(StoreProfilePayloadSchema, item.payload, item.id)).toEqual([]);
      await t.core.area('profiles').validate(item.payload as ProfileInput);
    }
  });

  it('overlays pass the netboot catalog\'s overlay checks', () => {
    for (const item of ofType('overlay')) {
      expect(schemaErrors(StoreOverlayPayloadSchema, item.payload, item.id)).toEqual([]);
      const { distro, ...fields } = item.payload as OverlayFields & { distro: string };
      t.core.area('netboot').catalog.validateOverlay(distro, fields);
    }
  });

  it('scripts match the scripts contract, pass the scripts area\'s own checks, render with their defaults and pass sh -n / bash -n', async () => {
    for (const item of ofType('script')) {
      expect(schemaErrors(ScriptCreateSchema, item.payload, item.id)).toEqual([]);
      const script = item.payload as ScriptCreate;
      await t.core.area('scripts').validate(script);
      const check = await t.core.area('scripts').check(script.kind, script.content, script.variables);
      expect(check.issues.filter((issue) => issue.severity === 'error'), item.id).toEqual([]);
      const variables = { ...script.variables, ssh_key: 'ssh-ed25519 AAAAC3Nza test@example', report_url: 'http://192.0.2.1:8080/report' };
      const rendered = await t.core.area('templates').render(script.content, variables);
      if (script.kind === 'sh' || script.kind === 'bash') {
        execFileSync(script.kind === 'sh' ? 'dash' : 'bash', ['-n'], { input: rendered });
        execFileSync(script.kind === 'sh' ? 'dash' : 'bash', ['-n'], { input: script.content });
      } else {
        expect(script.kind).toBe('powershell');
        expect(rendered).toContain('$ErrorActionPreference');
      }
    }
  });

  it('baselines name only scripts they require, and their os family matches', () => {
    const scripts = new Map(ofType('script').map((item) => [item.id, item.payload as ScriptCreate]));
    for (const item of ofType('baseline')) {
      expect(schemaErrors(StoreBaselinePayloadSchema, item.payload, item.id)).toEqual([]);
      const payload = item.payload as { os_family: string; scripts: { script: string }[] };
      for (const step of payload.scripts) {
        expect(referencesOf(item)).toContain(`script/${step.script}`);
        expect(['any', payload.os_family]).toContain(scripts.get(step.script)?.os_family);
      }
    }
  });

  it('every shipped item imports for real into an empty Bootwright (the bundle last: its items exist by then and are skipped)', async () => {
    const order = ['script', 'answer-template', 'profile', 'overlay', 'baseline', 'bundle'] as const;
    for (const type of order) {
      for (const item of ofType(type)) {
        const reply = await s.call('POST', '/store/import', { type, id: item.id, on_conflict: 'skip' });
        expect(reply.status, `${type}/${item.id}: ${JSON.stringify(reply.body)}`).toBe(200);
      }
    }
    expect(s.scripts.list()).toHaveLength(ofType('script').length);
    expect(s.baselines.list()).toHaveLength(ofType('baseline').length);
  });
});
