import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { presencePing } from '../../../src-main/power/ipmi/ipmi-connection.js';
import { findTool } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/ipmi');

/**
 * OpenIPMI's BMC simulator on 127.0.0.1 with the fixture configuration:
 * user admin/secretpw (administrator) and operator/oppass12 (operator);
 * power, reset and boot device kept by chassis-control.sh in files.
 */
export interface IpmiSim {
  port: number;
  /** A chassis value as the control script stored it (power, boot, reset, shutdown), or null. */
  value(parm: string): Promise<string | null>;
  /** Every "parm value" the control script was asked to set, in order. */
  log(): Promise<string[]>;
  /** Waits (bounded) until `parm` reads `expected`. */
  waitFor(parm: string, expected: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The tools these tests need, or a reason they are missing. */
export function ipmiToolsMissing(): string | null {
  const missing = ['ipmi_sim', 'ipmitool'].filter((tool) => !findTool(tool));
  return missing.length === 0 ? null : `missing ${missing.join(', ')} (Debian openipmi, ipmitool; installed by .ci/run)`;
}

/** Skip only outside CI, and say why (tests/helpers/netns.ts has the same rule). */
export function skipIpmiTests(label: string): boolean {
  const reason = ipmiToolsMissing();
  if (reason === null || process.env.CI) return false;
  console.warn(`${label} skipped: ${reason}; in CI it runs`);
  return true;
}

/** A UDP port on 127.0.0.1 that is free right now. */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/**
 * Starts ipmi_sim; tries again on a new port (at most 3 times) when it does
 * not come up: the free port picked can be taken by a parallel test file
 * before ipmi_sim binds it, and a loaded CI machine can be slow to start it.
 */
export async function startIpmiSim(): Promise<IpmiSim> {
  const failures: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      return await startIpmiSimOnce();
    } catch (err) {
      failures.push(`attempt ${attempt}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`ipmi_sim did not start:\n${failures.join('\n')}`);
}

async function startIpmiSimOnce(): Promise<IpmiSim> {
  const work = await tempDir('bootwright-ipmisim-');
  const stateDir = path.join(work.dir, 'chassis');
  const persistDir = path.join(work.dir, 'persist');
  await mkdir(stateDir);
  await mkdir(persistDir);
  const port = await freeUdpPort();
  const template = await readFile(path.join(FIXTURES, 'lan.conf.template'), 'utf8');
  const config = template
    .replaceAll('@PORT@', String(port))
    .replaceAll('@CHASSIS@', `/bin/sh ${path.join(FIXTURES, 'chassis-control.sh')}`)
    .replaceAll('@STATE@', stateDir);
  const configPath = path.join(work.dir, 'lan.conf');
  await writeFile(configPath, config);
  const child: ChildProcess = spawn(findTool('ipmi_sim')!, ['-c', configPath, '-f', path.join(FIXTURES, 'sim.emu'), '-s', persistDir, '-n'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    }
    await work.remove();
  };

  // Ready when it answers a presence ping (bounded: 75 tries of 200 ms).
  let ready = false;
  for (let attempt = 0; attempt < 75 && !ready && child.exitCode === null; attempt += 1) {
    ready = await presencePing('127.0.0.1', port, { timeoutMs: 200, retries: 0 }).then(
      () => true,
      () => false,
    );
  }
  if (!ready) {
    await stop();
    const how = child.exitCode !== null || child.signalCode !== null ? `exited (${child.exitCode ?? child.signalCode})` : 'no answer to a presence ping in 15 s';
    throw new Error(`ipmi_sim did not come up on 127.0.0.1:${port}: ${how}; output: ${output.slice(-2000)}`);
  }

  const value = async (parm: string) => {
    try {
      return (await readFile(path.join(stateDir, parm), 'utf8')).trim();
    } catch {
      return null;
    }
  };
  return {
    port,
    value,
    async log() {
      const text = await readFile(path.join(stateDir, 'log'), 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean);
    },
    async waitFor(parm, expected, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while ((await value(parm)) !== expected) {
        if (Date.now() > deadline) throw new Error(`${parm} stayed ${await value(parm)}, expected ${expected}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop,
  };
}
