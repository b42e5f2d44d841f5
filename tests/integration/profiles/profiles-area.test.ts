import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

// The profiles area owns what the hosts area shares with it (src-main/profiles/index.ts).
describe('profiles area wiring', () => {
  let t: TestCore;
  beforeEach(async () => {
    t = await createTestCore();
  });
  afterEach(async () => {
    await t.close();
  });

  it('runs host writes on the profiles write queue, so a host assignment waits for a profile write in progress', async () => {
    const [profiles, hosts] = [t.core.area('profiles'), t.core.area('hosts')];
    let release!: () => void;
    const held = profiles.queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const create = hosts.create({ mac: '52:54:00:aa:00:01' });
    // Give the host write every chance to start if it were on a queue of its own (its row would be in the table).
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(hosts.all()).toEqual([]);
    release();
    await held;
    expect((await create).mac).toBe('52:54:00:aa:00:01');
  });

  it('names the hosts assigned a profile through the usage check the hosts area registered', async () => {
    const [profiles, hosts] = [t.core.area('profiles'), t.core.area('hosts')];
    const profile = await profiles.create({ name: 'Local', boot_type: 'local' }, { author: 'test' });
    const host = await hosts.create({ mac: '52:54:00:aa:00:02', hostname: 'uses-it', profile_id: profile.id });
    expect(profiles.usersOf(profile.id).hosts).toEqual([{ id: host.id, name: 'uses-it' }]);
  });
});
