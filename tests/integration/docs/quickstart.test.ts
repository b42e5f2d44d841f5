import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { codeBlocks, readDoc, section } from './markdown-blocks.js';

/*
 * docs/quickstart.md's API walkthrough runs as written: every sh block of
 * "2b. With the API (curl)" (but the probe, which would send a real DHCP
 * request out of an interface) is run by bash with `set -euo pipefail`
 * against a headless core on loopback. Only the server's address and the
 * data directory are replaced. Each curl uses --fail-with-body, so any
 * non-2xx answer fails the script. The network services are kept from
 * starting (their auto-start is off): the doc's `eth0` is this machine's,
 * and tests send packets only to loopback.
 */

const missingTools = ['/usr/bin/curl', '/usr/bin/jq', '/bin/bash'].filter((tool) => !existsSync(tool));
if (missingTools.length > 0 && !process.env.CI) console.warn(`quickstart test skipped: ${missingTools.join(', ')} missing (apt-get install curl jq); in CI it runs`);

const SERVER_IN_DOC = 'http://localhost:8080';
const DATA_IN_DOC = './bw-data';

function runBash(script: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', `set -euo pipefail\n${script}`], { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function apiBlocks(): string[] {
  const blocks = codeBlocks(section(readDoc('docs/quickstart.md'), '2b. With the API (curl)')).filter((block) => block.lang === 'sh');
  return blocks.map((block) => block.code);
}

describe.skipIf(missingTools.length > 0 && !process.env.CI)('docs/quickstart.md, API form', () => {
  let t: TestCore;
  let work: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    t = await createTestCore();
    for (const name of ['dhcp', 'dns', 'tftp']) await t.core.kernel.services.setAutoStart(name, false);
    await t.core.start();
    work = await tempDir('bootwright-quickstart-');
  });
  afterAll(async () => {
    await t?.close();
    await work?.remove();
  });

  it('names the server and data directory the substitutions expect, and every block but the probe is run', () => {
    const blocks = apiBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks[0]).toContain(`BW=${SERVER_IN_DOC}/api/v1`);
    expect(blocks[0]).toContain(`DATA=${DATA_IN_DOC}`);
    expect(blocks.filter((code) => code.includes('/dhcp/probe'))).toHaveLength(1);
  });

  it('runs every command of the walkthrough against a real server', async () => {
    const script = apiBlocks()
      .filter((code) => !code.includes('/dhcp/probe'))
      .join('\n')
      .replaceAll(SERVER_IN_DOC, t.core.url())
      .replaceAll(DATA_IN_DOC, t.dataDir);
    // Asynchronously: the server answering curl runs in this process.
    const run = await runBash(script, work.dir);
    expect(run.status, `stderr:\n${run.stderr}\nstdout:\n${run.stdout}`).toBe(0);

    // What the commands did, read back from the core.
    const dhcp = t.core.area('dhcp').settings.get();
    expect(dhcp.interfaces).toEqual([{ name: 'eth0', mode: 'server' }]);
    expect(dhcp.subnets.map((subnet) => [subnet.subnet, subnet.router])).toEqual([['192.168.50.0/24', '192.168.50.1']]);
    const defaultProfile = t.core.kernel.settings.netboot().default_profile_id;
    expect(defaultProfile).not.toBeNull();
    expect(t.core.area('profiles').require(defaultProfile ?? 0).boot_type).toBe('linux');
    expect(t.core.area('system').firstRun.view()).toEqual({ completed: true, skipped: false, must_change_password: false });
    // No service was started by it.
    expect(t.core.kernel.services.get('dhcp').state).toBe('stopped');
  });
});
