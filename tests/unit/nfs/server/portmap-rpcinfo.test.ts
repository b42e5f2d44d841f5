import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, skipNetnsTest, waitForOutput, type Netns } from '../../../helpers/netns.js';

/*
 * Real peers: Debian's `rpcinfo` (libtirpc) against our portmapper bound on
 * 111 in a test namespace, and our rpcbind-client registering with the real
 * `rpcbind` daemon there. The namespace's own programs run from
 * fixtures/rpc-peer.ts (node + tsx), since rpcbind takes registrations only
 * from its own host's loopback.
 */

const SCRIPT = path.resolve(import.meta.dirname, 'fixtures/rpc-peer.ts');
const ADDRESS = '10.77.0.1';
const MOUNT_PORT = 20048;
const skip = skipNetnsTest('portmapper rpcinfo/rpcbind test', ['rpcinfo', 'rpcbind']);

function peerScript(ns: Netns, args: string[]): Promise<string> {
  return ns.must(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { timeoutMs: 30_000 });
}

/** `rpcinfo -p` rows as "program version proto port". */
function rows(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trim().split(/\s+/).slice(0, 4).join(' '))
    .filter((line) => /^\d+ \d+ (tcp|udp) \d+$/.test(line));
}

describe.skipIf(skip)('portmapper against rpcinfo and rpcbind (namespace)', () => {
  let lab: NetLab;
  let ns: Netns;
  /** Where rpcinfo runs: another namespace, a remote client over a veth. */
  let client: Netns;

  beforeAll(async () => {
    lab = await NetLab.create();
    ns = await lab.namespace('rpc');
    client = await lab.namespace('cli');
    await lab.link(ns, 'eth0', `${ADDRESS}/24`, client, 'eth0', '10.77.0.2/24');
  });

  afterAll(async () => {
    await lab?.destroy();
  });

  it('our portmapper on 111 answers rpcinfo -p, -t and -u for a program it maps', async () => {
    const server: ChildProcess = ns.spawn(process.execPath, ['--import', 'tsx', SCRIPT, 'serve', String(MOUNT_PORT)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitForOutput(server, /ready/);
      const list = await client.must('rpcinfo', ['-p', ADDRESS]);
      expect(rows(list)).toEqual([`100000 2 tcp 111`, `100000 2 udp 111`, `100005 3 tcp ${MOUNT_PORT}`, `100005 3 udp ${MOUNT_PORT}`]);
      expect(await client.must('rpcinfo', ['-t', ADDRESS, '100005', '3'])).toContain('program 100005 version 3 ready and waiting');
      expect(await client.must('rpcinfo', ['-u', ADDRESS, '100005', '3'])).toContain('program 100005 version 3 ready and waiting');
      // A program nobody maps: rpcinfo learns port 0 from GETPORT and says so.
      const missing = await client.run('rpcinfo', ['-t', ADDRESS, '100003', '3']);
      expect(missing.code).not.toBe(0);
    } finally {
      server.kill('SIGKILL');
      if (server.exitCode === null && server.signalCode === null) await new Promise((resolve) => server.once('exit', resolve));
    }
  });

  it('registers our mappings with a running rpcbind, which lists them, and unregisters them', async () => {
    // rpcbind keeps its socket and lock in /run: a private tmpfs keeps it from any other rpcbind on this machine.
    const rpcbind = ns.spawn('sh', ['-c', 'mount -t tmpfs tmpfs /run && exec rpcbind -f -w']);
    try {
      let answering = false;
      for (let attempt = 0; attempt < 20 && !answering; attempt += 1) answering = (await peerScript(ns, ['probe'])).trim() === 'true';
      expect(answering).toBe(true);
      const mappings = [
        { program: 100005, version: 3, protocol: 6, port: MOUNT_PORT },
        { program: 100005, version: 3, protocol: 17, port: MOUNT_PORT },
        { program: 100003, version: 3, protocol: 6, port: 2049 },
      ];
      await peerScript(ns, ['register', JSON.stringify(mappings)]);
      // Registering again (a restart after a crash) replaces the entries instead of failing.
      await peerScript(ns, ['register', JSON.stringify(mappings)]);
      const listed = rows(await client.must('rpcinfo', ['-p', ADDRESS]));
      expect(listed).toEqual(expect.arrayContaining([`100005 3 tcp ${MOUNT_PORT}`, `100005 3 udp ${MOUNT_PORT}`, '100003 3 tcp 2049', '100000 2 tcp 111']));
      await peerScript(ns, ['unregister', JSON.stringify(mappings)]);
      const after = rows(await client.must('rpcinfo', ['-p', ADDRESS]));
      expect(after.filter((row) => row.startsWith('100005 ') || row.startsWith('100003 '))).toEqual([]);
      expect(after).toContain('100000 2 udp 111');
      // Nothing answers on another port.
      expect((await peerScript(ns, ['probe', '112'])).trim()).toBe('false');
    } finally {
      rpcbind.kill('SIGKILL');
    }
  });
});
