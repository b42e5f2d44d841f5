import { describe, expect, it } from 'vitest';
import { areaListProblems, Areas, type AreaModule, type Kernel } from '../../../src-main/core/area.js';

// The walker only hands the kernel through; no area here reads it.
const kernel = {} as Kernel;

/** An area whose facade records the facades it was given. */
function area(name: string, needs: string[], calls: string[]): AreaModule<string, { name: string; deps: Record<string, unknown> }> {
  return {
    name,
    needs,
    create(_kernel, deps) {
      calls.push(`create ${name}`);
      return {
        facade: { name, deps },
        routes: [async () => {}],
        services: [],
        prepare: async () => void calls.push(`prepare ${name}`),
        start: async () => void calls.push(`start ${name}`),
        stop: async () => void calls.push(`stop ${name}`),
        close: async () => void calls.push(`close ${name}`),
      };
    },
  };
}

describe('Areas', () => {
  it('creates the areas in list order, giving each the facades of the areas it needs', async () => {
    const calls: string[] = [];
    const a = area('a', [], calls);
    const b = area('b', ['a'], calls);
    const areas = await Areas.create([a, b], kernel);
    expect(calls).toEqual(['create a', 'create b']);
    expect(areas.facade(b).deps).toEqual({ a: areas.facade(a) });
    expect(areas.routes()).toHaveLength(2);
  });

  it('prepares and starts in list order, stops and closes in reverse order', async () => {
    const calls: string[] = [];
    const areas = await Areas.create([area('a', [], calls), area('b', ['a'], calls)], kernel);
    calls.length = 0;
    await areas.prepare();
    await areas.start();
    await areas.stop();
    await areas.close();
    expect(calls).toEqual(['prepare a', 'prepare b', 'start a', 'start b', 'stop b', 'stop a', 'close b', 'close a']);
  });

  it('refuses an area listed before an area it needs, and one listed twice', async () => {
    const calls: string[] = [];
    await expect(Areas.create([area('b', ['a'], calls), area('a', [], calls)], kernel)).rejects.toThrow('"b" needs "a", which is listed after it');
    await expect(Areas.create([area('a', [], calls), area('a', [], calls)], kernel)).rejects.toThrow('"a" is listed twice');
    await expect(Areas.create([area('a', ['x'], calls)], kernel)).rejects.toThrow('"a" needs "x", which is not in the list');
    expect(calls, 'nothing is created from a list with a wiring mistake').toEqual([]);
  });

  it('names a cycle among the needs', () => {
    const calls: string[] = [];
    const problems = areaListProblems([area('a', ['c'], calls), area('b', ['a'], calls), area('c', ['b'], calls), area('d', [], calls)]);
    expect(problems).toContain('the needs form a cycle: a → c → b → a');
    expect(areaListProblems([area('a', [], calls), area('b', ['a'], calls)])).toEqual([]);
  });

  it('names an area missing from the list when its facade is asked for', async () => {
    const areas = await Areas.create([], kernel);
    expect(() => areas.facade(area('dns', [], []))).toThrow('area "dns" is not in the area list');
  });
});
