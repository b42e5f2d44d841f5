import { describe, expect, it } from 'vitest';
import { freeName, planImport, type PlanInput } from '../../../src-main/community-store/import-plan.js';

const taken = new Set(['docker', 'docker (2)', 'base']);
const isTaken = (_type: string, name: string) => taken.has(name.toLowerCase());

const items: PlanInput[] = [
  { key: 'script/docker', type: 'script', name: 'Docker', canRename: true, existing: { id: 4, name: 'docker' } },
  { key: 'script/new', type: 'script', name: 'New', canRename: true, existing: undefined },
  { key: 'baseline/base', type: 'baseline', name: 'Base', canRename: true, existing: { id: 9, name: 'base' } },
];

describe('import conflict planning', () => {
  it('lists every taken name as a conflict when asked (the default)', () => {
    const plan = planImport(items, { onConflict: 'ask', resolutions: {}, isTaken });
    expect(plan.conflicts).toEqual([
      { key: 'script/docker', type: 'script', name: 'Docker', existing_id: 4 },
      { key: 'baseline/base', type: 'baseline', name: 'Base', existing_id: 9 },
    ]);
    expect(plan.steps.map((step) => step.action)).toEqual(['created']);
  });

  it('applies per-key resolutions over on_conflict', () => {
    const plan = planImport(items, { onConflict: 'skip', resolutions: { 'script/docker': 'rename' }, isTaken });
    expect(plan.conflicts).toEqual([]);
    expect(plan.steps.map((step) => [step.key, step.action, step.name])).toEqual([
      ['script/docker', 'renamed', 'Docker (3)'],
      ['script/new', 'created', 'New'],
      ['baseline/base', 'skipped', 'base'],
    ]);
    const overwrite = planImport(items, { onConflict: 'overwrite', resolutions: {}, isTaken });
    expect(overwrite.steps.filter((step) => step.action === 'overwritten').map((step) => step.existing?.id)).toEqual([4, 9]);
  });

  it('never renames two items to the same name, and reports items that cannot be renamed', () => {
    const twins: PlanInput[] = [
      { key: 'script/a', type: 'script', name: 'Base', canRename: true, existing: { id: 1, name: 'Base' } },
      { key: 'script/b', type: 'script', name: 'Base', canRename: true, existing: { id: 1, name: 'Base' } },
      { key: 'overlay/x', type: 'overlay', name: 'debian', canRename: false, existing: { id: 2, name: 'debian' } },
    ];
    const plan = planImport(twins, { onConflict: 'rename', resolutions: {}, isTaken });
    expect(plan.steps.map((step) => step.name)).toEqual(['Base (2)', 'Base (3)']);
    expect(plan.unrenamable).toEqual(['overlay/x']);
  });

  it('keeps renamed names within 64 characters', () => {
    const long = 'x'.repeat(64);
    expect(freeName(long, () => false)).toHaveLength(64);
    expect(freeName(long, () => false).endsWith(' (2)')).toBe(true);
  });
});
