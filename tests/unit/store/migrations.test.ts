import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

let dir: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});

afterEach(async () => {
  await remove();
});

/** Opens the store (with the real migrations) over a version-1 config file holding `sections`. */
async function migrate(sections: Record<string, unknown>): Promise<Record<string, unknown>> {
  await writeFile(path.join(dir, 'config.json'), JSON.stringify({ schema_version: 1, collections: {}, sections }));
  const store = await Store.open({ dataDir: dir });
  try {
    return store.file('config').data.sections;
  } finally {
    await store.close();
  }
}

describe('config migration 2: the DNS enabled flag becomes the dns auto-start flag', () => {
  it('a stored enabled false turns auto-start off and keeps the other flags and settings', async () => {
    const sections = await migrate({
      dns: { enabled: false, port: 5353, local_domain: 'lab.test', upstream: '' },
      services: { auto_start: { tftp: true } },
    });
    expect(sections['dns']).toEqual({ port: 5353, local_domain: 'lab.test', upstream: '' });
    expect(sections['services']).toEqual({ auto_start: { tftp: true, dns: false } });
  });

  it('a stored enabled true is dropped and leaves the auto-start flag as it was', async () => {
    const sections = await migrate({ dns: { enabled: true, port: 53 }, services: { auto_start: { dns: false } } });
    expect(sections['dns']).toEqual({ port: 53 });
    expect(sections['services']).toEqual({ auto_start: { dns: false } });
  });

  it('a file without DNS settings is left alone', async () => {
    expect(await migrate({ tftp: { port: 69 } })).toEqual({ tftp: { port: 69 } });
  });
});

describe('config migration 3: a DHCP subnet\'s router null (sent none) becomes "none"', () => {
  it('turns null into "none" and leaves addresses and the other fields alone', async () => {
    const sections = await migrate({
      dhcp: {
        access_mode: 'open',
        subnets: [
          { subnet: '10.0.0.0/24', ranges: [], router: null, dns_servers: null },
          { subnet: '10.0.1.0/24', ranges: [], router: '10.0.1.254', dns_servers: [] },
        ],
      },
    });
    expect(sections['dhcp']).toEqual({
      access_mode: 'open',
      subnets: [
        { subnet: '10.0.0.0/24', ranges: [], router: 'none', dns_servers: null },
        { subnet: '10.0.1.0/24', ranges: [], router: '10.0.1.254', dns_servers: [] },
      ],
    });
  });

  it('a file without DHCP subnets is left alone', async () => {
    expect(await migrate({ dhcp: { access_mode: 'open' } })).toEqual({ dhcp: { access_mode: 'open' } });
  });
});

describe('config migration 4: hosts get boot_loader null', () => {
  it("adds boot_loader null to stored hosts and leaves one that has it alone", async () => {
    const hosts = { next_id: 3, items: [{ id: 1, mac: '52:54:00:00:00:01', group: 'lab' }, { id: 2, mac: '52:54:00:00:00:02', boot_loader: 'ipxe' }] };
    await writeFile(path.join(dir, 'config.json'), JSON.stringify({ schema_version: 3, collections: { hosts }, sections: {} }));
    const store = await Store.open({ dataDir: dir });
    try {
      expect(store.file('config').data.collections['hosts']!.items).toEqual([
        { id: 1, mac: '52:54:00:00:00:01', group: 'lab', boot_loader: null },
        { id: 2, mac: '52:54:00:00:00:02', boot_loader: 'ipxe' },
      ]);
    } finally {
      await store.close();
    }
  });
});
