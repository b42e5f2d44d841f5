import { describe, expect, it } from 'vitest';
import { renderSteps, sha256Hex, stepData, type HostData, type ServerData } from '../../../src-main/baselines/baseline-render.js';
import { AppError } from '../../../src-main/core/errors.js';
import { TemplateEngine } from '../../../src-main/templates/template-engine.js';
import { FakeScriptsFacade } from '../../helpers/fake-scripts-facade.js';
import { row } from './baseline-fixtures.js';

const HOST: HostData = { id: 5, mac: '52:54:00:00:00:05', hostname: 'web01', ip: '10.0.0.5', group: 'lab', tags: ['gpu'] };
const SERVER: ServerData = { name: 'bootwright', ip: '10.0.0.1', http_url: 'http://10.0.0.1:8080', base_url: 'http://10.0.0.1:8080' };
const engine = new TemplateEngine();
const templates = { render: async (source: string, data: Record<string, unknown>) => engine.render(source, data) };

describe('stepData', () => {
  it('puts the variables (overrides over defaults) at the top level and under variables, host and server winning a clash', () => {
    expect(stepData({ a: '1', b: '2', host: 'shadowed' }, { b: 'over' }, HOST, SERVER)).toEqual({
      a: '1',
      b: 'over',
      host: HOST,
      variables: { a: '1', b: 'over', host: 'shadowed' },
      server: SERVER,
    });
  });
});

describe('renderSteps', () => {
  it('renders each step in order with its variables, host and server, with the sha256 of what it rendered', async () => {
    const scripts = new FakeScriptsFacade();
    const docker = await scripts.create({ name: 'Docker', kind: 'sh', content: '#!/bin/sh\necho {{ channel }} {{ variables.user }} {{ host.hostname }} {{ host.tags | join: "," }} {{ server.http_url }}\n', variables: { channel: 'stable', user: 'root' } });
    const win = await scripts.create({ name: 'Hello', kind: 'powershell', content: 'Write-Host "{{ server.name }} {{ host.group }}"' });
    await scripts.update(win.id, { content: 'Write-Host "{{ server.name }} / {{ host.group }}"' });
    const baseline = row(3, 'Web', {}, [
      { script_id: docker.id, variables: { channel: 'edge' }, continue_on_error: true, timeout_seconds: 60, script_name: 'Docker', kind: 'sh' },
      { script_id: win.id, variables: {}, continue_on_error: false, timeout_seconds: 600, script_name: 'Hello', kind: 'powershell' },
    ]);
    const rendered = await renderSteps(baseline, HOST, SERVER, { templates, scripts });
    const first = '#!/bin/sh\necho edge root web01 gpu http://10.0.0.1:8080\n';
    expect(rendered).toEqual([
      { position: 1, script_id: docker.id, name: 'Docker', kind: 'sh', version: 1, content: first, sha256: sha256Hex(first), continue_on_error: true, timeout_seconds: 60 },
      { position: 2, script_id: win.id, name: 'Hello', kind: 'powershell', version: 2, content: 'Write-Host "bootwright / lab"', sha256: sha256Hex('Write-Host "bootwright / lab"'), continue_on_error: false, timeout_seconds: 600 },
    ]);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('fails with 409 INVALID_STATE naming the script and step when a script does not render or is gone', async () => {
    const scripts = new FakeScriptsFacade();
    const broken = await scripts.create({ name: 'Broken', kind: 'sh', content: 'echo {{ x | no_such_filter }}' });
    const fine = await scripts.create({ name: 'Fine', kind: 'sh', content: 'echo ok' });
    const step = (id: number, name: string) => ({ script_id: id, variables: {}, continue_on_error: false, timeout_seconds: 600, script_name: name, kind: 'sh' as const });
    const err = await renderSteps(row(4, 'Lab', {}, [step(fine.id, 'Fine'), step(broken.id, 'Broken')]), HOST, SERVER, { templates, scripts }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_STATE');
    expect((err as AppError).message).toMatch(/^script "Broken" \(id 1, step 2 of baseline "Lab" \(id 4\)\) does not render: /);
    await scripts.remove(fine.id, { force: true });
    const gone = await renderSteps(row(4, 'Lab', {}, [step(fine.id, 'Fine')]), HOST, SERVER, { templates, scripts }).catch((e: unknown) => e);
    expect((gone as AppError).message).toBe('step 1 of baseline "Lab" (id 4): script "Fine" (id 2) no longer exists; edit the baseline\'s scripts');
  });
});
