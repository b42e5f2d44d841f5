import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BaselineService } from '../../../src-main/baselines/baseline-service.js';
import { AppError } from '../../../src-main/core/errors.js';
import { LogSink } from '../../../src-main/core/logger.js';
import { EventLog } from '../../../src-main/events/event-log.js';
import { Store } from '../../../src-main/store/store.js';
import { TemplateEngine } from '../../../src-main/templates/template-engine.js';
import { tempDir } from '../../helpers/test-core.js';
import { FakeLookups, host } from './baseline-fixtures.js';

let dir: { dir: string; remove: () => Promise<void> };
let store: Store;
let lookups: FakeLookups;
let service: BaselineService;
const servedFor: string[] = [];

beforeEach(async () => {
  dir = await tempDir();
  store = await Store.open({ dataDir: dir.dir });
  lookups = new FakeLookups();
  const engine = new TemplateEngine();
  servedFor.length = 0;
  service = new BaselineService({
    store,
    events: new EventLog(store),
    log: new LogSink({ logDir: null, level: 'error', console: false }).logger('test'),
    lookups,
    templates: { render: async (source, data) => engine.render(source, data) },
    server: (clientIp) => {
      servedFor.push(clientIp);
      return { name: 'bw', ip: '10.1.0.1', http_url: 'http://10.1.0.1:8080', base_url: 'http://10.1.0.1:8080' };
    },
  });
});
afterEach(async () => {
  await store.close();
  await dir.remove();
});

describe('BaselineService', () => {
  it('validates like a write without storing anything; an unknown id is a 404', async () => {
    await service.validate({ name: 'Dry run' });
    expect(service.list()).toEqual([]);
    await expect(service.validate({ name: 'x', colour: 'red' } as never)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.colour', message: 'unknown field' }] });
    await expect(service.validate({ description: 'x' }, 42)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await service.create({ name: 'Real' }, 'alice');
    await expect(service.validate({ name: 'REAL' })).rejects.toBeInstanceOf(AppError);
    expect(service.byName('real')?.name).toBe('Real');
  });

  it('names the baselines that run a script, for the scripts area\'s delete check', async () => {
    const script = await lookups.scripts.create({ name: 'S', kind: 'sh', content: 'true' });
    const unused = await lookups.scripts.create({ name: 'U', kind: 'sh', content: 'true' });
    const a = await service.create({ name: 'A', scripts: [{ script_id: script.id }] }, 'alice');
    const b = await service.create({ name: 'B', scripts: [{ script_id: script.id }, { script_id: script.id }] }, 'alice');
    expect(service.usersOfScript(script.id)).toEqual([`baseline "A" (id ${a.id})`, `baseline "B" (id ${b.id})`]);
    expect(service.usersOfScript(unused.id)).toEqual([]);
    await service.setScripts(a.id, [], 'alice');
    expect(service.usersOfScript(script.id)).toEqual([`baseline "B" (id ${b.id})`]);
  });

  it('renders for the server address the caller names, else the host\'s own', async () => {
    const script = await lookups.scripts.create({ name: 'S', kind: 'sh', content: 'curl {{ server.http_url }}/x # {{ host.ip }}' });
    const web = lookups.addHost(host(1, { ip: '10.1.0.50' }));
    await service.create({ name: 'Default', scripts: [{ script_id: script.id }], assign: { is_default: true } }, 'alice');
    const answer = await service.assigned({ host_id: web.id });
    expect(answer.scripts[0]?.content).toBe('curl http://10.1.0.1:8080/x # 10.1.0.50');
    await service.assigned({ mac: web.mac }, { clientIp: '10.1.0.77' });
    await service.assigned({ mac: '52:54:00:ff:ff:ff' });
    expect(servedFor).toEqual(['10.1.0.50', '10.1.0.77', '127.0.0.1']);
  });
});
