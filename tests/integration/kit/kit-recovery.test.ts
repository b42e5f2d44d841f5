import { afterAll, describe, expect, it } from 'vitest';
import { kitImportRows } from '../../../src-main/kit/kit-records.js';
import { createTestCore, tempDir } from '../../helpers/test-core.js';

/** A kit import a crash interrupted is undone at the next start (docs/kit.md, "All or nothing"). */

const dir = await tempDir('bootwright-kit-recovery-');
afterAll(async () => dir.remove());

describe('kit import recovery', () => {
  it('removes what a pending import created and puts back what it overwrote', async () => {
    const first = await createTestCore({ dataDir: dir.dir });
    const scripts = first.core.area('scripts');
    const kept = await scripts.create({ name: 'Kept', kind: 'sh', content: '#!/bin/sh\necho before\n' }, 'alice');
    // What an import leaves behind when the process dies between two writes: its record, a
    // finished overwrite, and a create whose id was never recorded.
    const before = { name: 'Kept', kind: 'sh', content: '#!/bin/sh\necho before\n', os_family: kept.os_family, description: '', variables: {} };
    await scripts.update(kept.id, { content: '#!/bin/sh\necho imported\n' }, 'bob');
    await scripts.create({ name: 'Imported', kind: 'sh', content: '#!/bin/sh\necho new\n' }, 'bob');
    await kitImportRows(first.core.kernel.store).insert({
      status: 'pending',
      by: 'bob',
      error: null,
      steps: [
        { key: 'scripts/Kept', section: 'scripts', action: 'overwritten', lookup_key: 'Kept', local_id: kept.id, before, done: true },
        { key: 'scripts/Imported', section: 'scripts', action: 'created', lookup_key: 'Imported', local_id: null, before: null, done: false },
      ],
    });
    await first.core.stop();

    const second = await createTestCore({ dataDir: dir.dir });
    try {
      const names = second.core.area('scripts').list().map((script) => script.name);
      expect(names).toEqual(['Kept']);
      expect(second.core.area('scripts').get(kept.id)?.content).toBe('#!/bin/sh\necho before\n');
      const row = kitImportRows(second.core.kernel.store).all()[0];
      expect(row).toMatchObject({ status: 'rolled_back' });
      expect(row?.error).toMatch(/^interrupted; rolled back at start/);
      expect(second.core.kernel.events.all().some((event) => event.kind === 'kit.import.rolled_back')).toBe(true);
    } finally {
      await second.core.stop();
    }
  });
});
