import { describe, expect, it } from 'vitest';
import { summarizeInventory } from '../../../../src-main/baselines/runtime/runtime-inventory.js';

describe('summarizeInventory', () => {
  it('reads system, CPUs, memory and NICs from lshw and disks from lsblk', () => {
    const summary = summarizeInventory({
      uuid: 'u-1',
      lshw: {
        class: 'system',
        vendor: 'Dell Inc.',
        product: 'PowerEdge R650',
        serial: 'FROM-LSHW',
        children: [
          {
            class: 'bus',
            children: [
              { class: 'processor', product: 'Intel Xeon Gold 6338', id: 'cpu:0' },
              { class: 'processor', product: 'Intel Xeon Gold 6338', id: 'cpu:1' },
              { class: 'processor', product: 'empty socket', disabled: true },
              { class: 'memory', id: 'memory', size: 68719476736 },
              { class: 'bridge', children: [{ class: 'network', logicalname: 'eno1', serial: 'aa:bb:cc:dd:ee:ff' }] },
            ],
          },
        ],
      },
      disks: { blockdevices: [{ name: 'nvme0n1', type: 'disk', size: 960197124096, model: 'PM9A3', serial: 'S6' }, { name: 'sr0', type: 'rom', size: 1024 }] },
    });
    expect(summary).toEqual({
      vendor: 'Dell Inc.',
      product: 'PowerEdge R650',
      serial: 'FROM-LSHW',
      uuid: 'u-1',
      cpu: 'Intel Xeon Gold 6338',
      cpu_count: 2,
      memory_bytes: 68719476736,
      disks: [{ name: 'nvme0n1', size_bytes: 960197124096, model: 'PM9A3', serial: 'S6' }],
      nics: [{ name: 'eno1', mac: 'aa:bb:cc:dd:ee:ff' }],
    });
  });

  it('answers nulls and empty lists for documents that are not what it expects, and stays bounded on a deep or wide tree', () => {
    expect(summarizeInventory({ lshw: 'nonsense', disks: [1, 2] })).toEqual({ vendor: null, product: null, serial: null, uuid: null, cpu: null, cpu_count: 0, memory_bytes: null, disks: [], nics: [] });
    let deep: Record<string, unknown> = { class: 'network', logicalname: 'deepest' };
    for (let i = 0; i < 10_000; i += 1) deep = { class: 'bus', children: [deep] };
    const wide = { class: 'system', children: Array.from({ length: 20_000 }, (_, i) => ({ class: 'network', logicalname: `n${i}` })) };
    expect(summarizeInventory({ lshw: deep }).nics).toEqual([]);
    expect(summarizeInventory({ lshw: wide }).nics).toHaveLength(64);
  });
});
