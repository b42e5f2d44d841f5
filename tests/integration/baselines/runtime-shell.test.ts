import { spawn } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaselineRun, BaselineTokenCreated } from '../../../src-main/baselines/baselines-contract.js';
import { answerTemplateData, sampleAnswerContext } from '../../../src-main/netboot/answers/answer-data.js';
import { PresetCatalog, presetDefaults } from '../../../src-main/netboot/answers/preset-catalog.js';
import { TemplateEngine } from '../../../src-main/templates/index.js';
import { findTool } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';
import { call } from '../netboot/tasks-kit.js';
import { runtimeLab, type RuntimeLab } from './runtime-kit.js';

/*
 * End to end: the post-install step the presets render, run by a real shell
 * against the real server on loopback. A machine's fresh system is played by
 * a PATH holding only dash (as sh) and busybox applets (no curl, no bash, no
 * coreutils, no jq), then by the usual Debian tools with curl. (The server
 * runs in this process, so a test namespace could not reach it without an
 * address outside the namespace: loopback it is.)
 */

const DASH = findTool('dash');
const BUSYBOX = findTool('busybox');
const CURL = findTool('curl');
const missing = [DASH ? null : 'dash', BUSYBOX ? null : 'busybox', CURL ? null : 'curl'].filter((tool) => tool !== null);
if (missing.length > 0) console.warn(`baselines runtime shell test skipped: ${missing.join(', ')} not installed; in CI it runs`);

/** What a minimal installed system offers the runner: sh (dash) and busybox's applets. */
const APPLETS = ['wget', 'sha256sum', 'tail', 'mktemp', 'rm', 'mkdir', 'date', 'cat', 'cp', 'mv', 'timeout', 'sleep'];

let lab: RuntimeLab;
let scratch: { dir: string; remove: () => Promise<void> };
let minimalPath = '';
const engine = new TemplateEngine();
const presets = PresetCatalog.load();

beforeAll(async () => {
  if (missing.length > 0) return;
  lab = await runtimeLab();
  scratch = await tempDir('bootwright-baseline-shell-');
  const bin = path.join(scratch.dir, 'bin');
  await mkdir(bin);
  await symlink(DASH ?? '', path.join(bin, 'sh'));
  for (const applet of APPLETS) await symlink(BUSYBOX ?? '', path.join(bin, applet));
  minimalPath = bin;
});

afterAll(async () => {
  await lab?.close();
  await scratch?.remove();
});

/** Runs `command` with dash, bounded in time; never rejects. */
function shell(command: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(DASH ?? 'dash', ['-c', command], { env, cwd: scratch.dir, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** The preset rendered for a machine whose baseline runner is at `runSh`. */
function renderPreset(id: string, runSh: string): string {
  const preset = presets.require(id);
  const context = { ...sampleAnswerContext(), baseline: { run_sh: runSh, run_ps1: runSh.replace(/run\.sh$/, 'run.ps1') } };
  return engine.render(preset.content, answerTemplateData(context, presetDefaults(preset), {}));
}

async function hostWithToken(steps: Parameters<RuntimeLab['resolver']['steps']['set']>[1]): Promise<{ hostId: number; created: BaselineTokenCreated }> {
  const host = await lab.t.core.area('hosts').create({ mac: `52:54:00:e2:e0:${(lab.resolver.steps.size + 1).toString(16).padStart(2, '0')}` });
  lab.resolver.steps.set(host.id, steps);
  const reply = await call<BaselineTokenCreated>(lab, 'POST', '/baselines/tokens', { body: { host_id: host.id } });
  expect(reply.status, reply.text).toBe(201);
  return { hostId: host.id, created: reply.body.data };
}

async function runsOf(hostId: number): Promise<BaselineRun[]> {
  return (await call<BaselineRun[]>(lab, 'GET', `/baselines/runs?host_id=${hostId}`)).body.data;
}

describe.skipIf(missing.length > 0)('the post-install step, run by a real shell', () => {
  it('Debian preseed\'s step on dash + busybox wget: a failing script with continue_on_error, a long output, a timeout', async () => {
    const { hostId, created } = await hostWithToken([
      { script_id: 11, name: 'fails but may', content: 'echo "hello from step one"\necho "to stderr" >&2\nexit 3\n', continue_on_error: true },
      { script_id: 12, name: 'talks a lot', content: 'i=0\nwhile [ $i -lt 3000 ]; do echo "line $i"; i=$((i + 1)); done\n' },
      { script_id: 13, name: 'too slow', content: 'sleep 30\n', timeout_seconds: 1, continue_on_error: true },
    ]);
    const preseed = renderPreset('debian-preseed', created.runner_url_sh);
    // The late_command's step without in-target (this machine is its own target): sh -c 'wget -qO- "…" | sh'.
    const line = preseed.split('\n').find((candidate) => candidate.includes('/baselines/runtime/')) ?? '';
    const match = /in-target (sh -c '.*') \|\| true ; \\$/.exec(line);
    expect(match, preseed).not.toBeNull();
    const result = await shell(match?.[1] ?? 'false', { PATH: minimalPath });
    expect(result.output).toContain('run 1');
    expect(result.code, result.output).toBe(0);

    const [run] = await runsOf(hostId);
    expect(run?.status, result.output).toBe('succeeded');
    expect(run?.results.map((r) => [r.position, r.name, r.status, r.exit_code])).toEqual([
      [1, 'fails but may', 'failed', 3],
      [2, 'talks a lot', 'ok', 0],
      [3, 'too slow', 'timeout', 143],
    ]);
    expect(run?.results[0]?.output_tail).toBe('hello from step one\nto stderr\n');
    const tail = run?.results[1]?.output_tail ?? '';
    expect(tail.length).toBe(8192);
    expect(tail.endsWith('line 2998\nline 2999\n')).toBe(true);
  });

  it('kickstart\'s step with curl: a script whose SHA-256 does not match is not run, the rest is skipped, the run fails', async () => {
    const { hostId, created } = await hostWithToken([
      { script_id: 21, name: 'fine', content: 'echo fine\n' },
      { script_id: 22, name: 'tampered', content: 'echo tampered > "$HOME/ran"\n', sha256: '0'.repeat(64) },
      { script_id: 23, name: 'after', content: 'echo after\n' },
    ]);
    const kickstart = renderPreset('kickstart', created.runner_url_sh);
    const line = kickstart.split('\n').find((candidate) => candidate.includes('/baselines/runtime/')) ?? '';
    expect(line).toBe(`curl -fsS "${created.runner_url_sh}" | sh || true`);
    const result = await shell(line.replace(/ \|\| true$/, ''), { PATH: '/usr/bin:/bin', HOME: scratch.dir });
    expect(result.code, result.output).toBe(1);
    const [run] = await runsOf(hostId);
    expect(run?.status).toBe('failed');
    expect(run?.results.map((r) => [r.name, r.status, r.exit_code])).toEqual([['fine', 'ok', 0], ['tampered', 'failed', null], ['after', 'skipped', null]]);
    expect(run?.results[1]?.output_tail).toContain(`differs from the expected ${'0'.repeat(64)}`);
    expect(run?.results[2]?.output_tail).toBe('not run: an earlier script failed\n');
  });

  it('runs nothing and opens no run when no baseline applies; a revoked token stops the runner at its first request', async () => {
    const { hostId, created } = await hostWithToken([]);
    const quiet = await shell(`wget -qO- "${created.runner_url_sh}" | sh`, { PATH: minimalPath });
    expect(quiet.code, quiet.output).toBe(0);
    expect(quiet.output).toContain('no baseline is assigned');
    expect(await runsOf(hostId)).toEqual([]);

    lab.resolver.steps.set(hostId, [{ script_id: 31, name: 'never', content: 'echo never\n' }]);
    expect((await call(lab, 'DELETE', `/baselines/tokens/${created.token_info.id}`)).status).toBe(200);
    const refused = await shell(`wget -qO- "${created.runner_url_sh}" | sh`, { PATH: minimalPath });
    expect(refused.output).toMatch(/404|Not Found/i);
    expect(await runsOf(hostId)).toEqual([]);
  });
});
