import { describe, expect, it } from 'vitest';
import { Areas, type AreaModule, type Kernel } from '../../../src-main/core/area.js';

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
        start: async () => void calls.push(`start ${name}`),
        stop: async () => void calls.push(`stop ${name}`),
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

  it('gives the routes of the named areas only, in list order', async () => {
    const calls: string[] = [];
    const areas = await Areas.create([area('a', [], calls), area('b', [], calls), area('c', [], calls)], kernel);
    const [, b, c] = areas.routes();
    expect(areas.routesOf(['c', 'b'])).toEqual([b, c]);
    expect(areas.routesOf([])).toEqual([]);
  });

  it('starts in list order and stops in reverse order', async () => {
    const calls: string[] = [];
    const areas = await Areas.create([area('a', [], calls), area('b', ['a'], calls)], kernel);
    calls.length = 0;
    await areas.start();
    await areas.stop();
    expect(calls).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });

  it('refuses an area listed before an area it needs, and one listed twice', async () => {
    const calls: string[] = [];
    await expect(Areas.create([area('b', ['a'], calls), area('a', [], calls)], kernel)).rejects.toThrow('"b" needs "a", which is not listed before it');
    await expect(Areas.create([area('a', [], calls), area('a', [], calls)], kernel)).rejects.toThrow('"a" is listed twice');
  });

  it('names an area missing from the list when its facade is asked for', async () => {
    const areas = await Areas.create([], kernel);
    expect(() => areas.facade(area('dns', [], []))).toThrow('area "dns" is not in the area list');
  });
});
