import { spawn } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Baseline, BaselineRun, HostInventory } from '../../../src-main/baselines/baselines-contract.js';
import type { AnswerTemplate, InstallTask } from '../../../src-main/netboot/netboot-contract.js';
import type { Script } from '../../../src-main/scripts/scripts-contract.js';
import { loginHeaders } from '../../helpers/auth.js';
import { findTool } from '../../helpers/netns.js';
import { fakeCatalog, writeFakeEntryFiles } from '../../helpers/netboot-fakes.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { answerUrlIn, identity } from '../netboot/tasks-kit.js';

/*
 * The whole post-install flow with nothing faked but the OS catalog: scripts
 * and a baseline made through the API and assigned to the host's group, an
 * install task with an answer template made from the Debian preset, the
 * answer file fetched the way the installer fetches it, and its late_command
 * step run by a real shell (dash, with only busybox applets on PATH, as in a
 * fresh system). The results must land on the host and the task timeline.
 * (Loopback: the server runs in this process.)
 */

const DASH = findTool('dash');
const BUSYBOX = findTool('busybox');
const missing = [DASH ? null : 'dash', BUSYBOX ? null : 'busybox'].filter((tool) => tool !== null);
if (missing.length > 0) console.warn(`baseline flow test skipped: ${missing.join(', ')} not installed; in CI it runs`);

const APPLETS = ['wget', 'sha256sum', 'tail', 'mktemp', 'rm', 'mkdir', 'date', 'cat', 'cp', 'mv', 'timeout', 'sleep', 'echo', 'uname'];
const MAC = '52:54:00:b5:0f:01';

let t: TestCore;
let operator: Record<string, string>;
let scratch: { dir: string; remove: () => Promise<void> };
let minimalPath = '';

async function api<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<T> {
  const response = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: operator, ...(body !== undefined ? { payload: body as object } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return (JSON.parse(response.body) as { data: T }).data;
}

function shell(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(DASH ?? 'dash', ['-c', command], { env: { PATH: minimalPath, HOME: scratch.dir }, cwd: scratch.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

beforeAll(async () => {
  if (missing.length > 0) return;
  t = await createTestCore({ netboot: { catalogReader: fakeCatalog() } });
  await t.core.kernel.services.start('http');
  await writeFakeEntryFiles(t.core.area('boot-files').files.root);
  operator = await loginHeaders(t.core, 'operator');
  scratch = await tempDir('bootwright-baseline-flow-');
  minimalPath = path.join(scratch.dir, 'bin');
  await mkdir(minimalPath);
  await symlink(DASH ?? '', path.join(minimalPath, 'sh'));
  for (const applet of APPLETS) await symlink(BUSYBOX ?? '', path.join(minimalPath, applet));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await scratch?.remove();
});

describe.skipIf(missing.length > 0)('the post-install baseline flow', () => {
  it('runs the baseline assigned to the host group from the installed system and records the results and the hardware inventory on the host and the task', async () => {
    const greet = await api<Script>('POST', '/scripts', {
      name: 'Greet',
      kind: 'sh',
      content: '#!/bin/sh\necho "hello {{ who }} from {{ host.hostname }}"\n',
      variables: { who: 'world' },
    });
    const failing = await api<Script>('POST', '/scripts', { name: 'Fails', kind: 'sh', content: '#!/bin/sh\necho about to fail\nexit 3\n' });
    const last = await api<Script>('POST', '/scripts', { name: 'Last', kind: 'sh', content: '#!/bin/sh\necho last step ran\n' });
    // What the shipped inventory script posts, cut down: lshw's tree and lsblk's disks, sent to the URL the runner exports.
    const inventory = await api<Script>('POST', '/scripts', {
      name: 'Inventory',
      kind: 'sh',
      content: [
        '#!/bin/sh',
        "cat > inventory.json <<'EOF'",
        '{ "serial": "SN-42", "lshw": { "class": "system", "vendor": "QEMU", "product": "Standard PC (Q35 + ICH9, 2009)", "children": [ { "class": "processor", "product": "Virtual CPU" }, { "class": "memory", "id": "memory", "size": 2147483648 }, { "class": "network", "logicalname": "ens3", "serial": "52:54:00:b5:0f:01" } ] }, "disks": { "blockdevices": [ { "name": "vda", "type": "disk", "size": 8589934592, "model": null } ] } }',
        'EOF',
        'wget -q -O- --header "Content-Type: application/json" --post-file inventory.json "$BOOTWRIGHT_INVENTORY_URL"',
        '',
      ].join('\n'),
    });
    const baseline = await api<Baseline>('POST', '/baselines', {
      name: 'Lab servers',
      assign: { groups: ['lab'] },
      scripts: [{ script_id: greet.id, variables: { who: 'lab' } }, { script_id: failing.id, continue_on_error: true }, { script_id: last.id }, { script_id: inventory.id }],
    });
    const host = await t.core.area('hosts').create({ mac: MAC, hostname: 'node1', group: 'lab' });
    const template = await api<AnswerTemplate>('POST', '/netboot/answer-templates', { preset: 'debian-preseed', name: 'Debian flow' });
    const task = await api<InstallTask>('POST', '/netboot/tasks', { host_id: host.id, distro: 'debian', template_id: template.id });

    const assigned = await api<{ rule: string; baseline: { id: number } | null }>('GET', `/baselines/assigned?host_id=${host.id}`);
    expect(assigned.rule).toBe('group');
    expect(assigned.baseline?.id).toBe(baseline.id);

    // What the machine does: its boot script names the answer URL; the installer fetches the preseed over HTTP.
    const script = await (await fetch(`${t.core.url()}/boot/ipxe/boot.ipxe?${identity(MAC)}`)).text();
    const answer = await fetch(answerUrlIn(script));
    expect(answer.status).toBe(200);
    const preseed = await answer.text();
    const step = /in-target sh -c '([^']+)'/.exec(preseed);
    expect(step, preseed).not.toBeNull();

    // in-target runs the step in the installed system: here, dash with busybox.
    const run = await shell(step?.[1] ?? 'false');
    expect(run.code, run.output).toBe(0);

    const runs = await api<BaselineRun[]>('GET', `/baselines/runs?host_id=${host.id}`);
    expect(runs).toHaveLength(1);
    const [only] = runs;
    expect(only?.task_id).toBe(task.id);
    expect(only?.baseline_id).toBe(baseline.id);
    expect(only?.status).toBe('succeeded');
    expect(only?.results.map((result) => [result.name, result.status, result.exit_code])).toEqual([
      ['Greet', 'ok', 0],
      ['Fails', 'failed', 3],
      ['Last', 'ok', 0],
      ['Inventory', 'ok', 0],
    ]);
    expect(only?.results[0]?.output_tail).toContain('hello lab from node1');
    expect(only?.results[1]?.output_tail).toContain('about to fail');

    // The inventory landed on the host record.
    const posted = await api<HostInventory>('GET', `/hosts/${host.id}/inventory`);
    expect(posted.summary).toMatchObject({ vendor: 'QEMU', product: 'Standard PC (Q35 + ICH9, 2009)', serial: 'SN-42', cpu: 'Virtual CPU', cpu_count: 1, memory_bytes: 2147483648 });
    expect(posted.summary.disks).toEqual([{ name: 'vda', size_bytes: 8589934592, model: null, serial: null }]);
    expect(posted.summary.nics).toEqual([{ name: 'ens3', mac: '52:54:00:b5:0f:01' }]);

    const view = await api<{ timeline: { kind: string }[] }>('GET', `/netboot/tasks/${task.id}`);
    expect(view.timeline.map((item) => item.kind)).toEqual(expect.arrayContaining(['baseline.run.started', 'baseline.run.finished']));
  }, 120_000);
});
