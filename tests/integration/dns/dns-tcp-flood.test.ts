import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TCP_LIMITS } from '../../../src-main/dns/server/tcp-connections.js';
import { toolPresent } from '../../helpers/tools.js';
import { dig, query, SUBNET_A, startDnsCore, type DnsCore } from './dns-harness.js';

/**
 * Idle TCP connections must not lock other clients out of DNS over TCP
 * (RFC 7766 §6.2.2): floods come from 127.1.0.x source addresses, the
 * legitimate query is dig +tcp from another address.
 */

const D = 'bootwright.local';
let t: DnsCore;
let digPresent = false;
let flood: { socket: net.Socket; closed: boolean }[] = [];

beforeAll(async () => {
  digPresent = toolPresent('dig', 'the dig +tcp checks of the TCP flood tests');
  t = await startDnsCore();
  await t.core.area('dns').records.create({ name: 'www', type: 'A', value: '10.0.0.1' });
  await t.core.area('dns').sync();
});

afterEach(() => {
  for (const entry of flood) entry.socket.destroy();
  flood = [];
});

afterAll(async () => {
  await t?.close();
});

/** Opens `count` idle connections from `from`; resolves once each is connected or closed. */
async function openIdle(from: string, count: number): Promise<void> {
  const opened = Array.from({ length: count }, () => {
    const entry = { socket: net.connect({ host: SUBNET_A.server, port: t.port, localAddress: from }), closed: false };
    flood.push(entry);
    return new Promise<void>((resolve) => {
      entry.socket.on('error', () => undefined);
      entry.socket.once('connect', () => resolve());
      entry.socket.once('close', () => {
        entry.closed = true;
        resolve();
      });
    });
  });
  await Promise.all(opened);
}

async function until(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const stillOpen = () => flood.filter((entry) => !entry.closed).length;

/** The legitimate client's TCP query: dig when installed, else the harness's own TCP client. */
async function tcpAnswer(): Promise<string[]> {
  if (digPresent) {
    const out = await dig(['+short', '+tcp', `www.${D}`, 'A'], { port: t.port, from: SUBNET_A.client });
    return out.trim().split('\n');
  }
  const answer = await query(`www.${D}`, 'A', { port: t.port, tcp: true, from: SUBNET_A.client });
  return (answer.answers ?? []).map((record) => String((record as { data?: unknown }).data));
}

describe('DNS over TCP under a connection flood', () => {
  it('one client with 300 idle connections keeps only its share and cannot block another client', async () => {
    await openIdle('127.1.0.60', 300);
    await until(() => stillOpen() <= DEFAULT_TCP_LIMITS.maxPerClient);
    expect(await tcpAnswer()).toEqual(['10.0.0.1']);
  });

  it('many clients filling the global cap still let a new client\'s query through', async () => {
    const perClient = DEFAULT_TCP_LIMITS.maxPerClient;
    const clients = Math.ceil(DEFAULT_TCP_LIMITS.maxConnections / perClient) + 2;
    for (let i = 0; i < clients; i++) await openIdle(`127.1.0.${100 + i}`, perClient);
    expect(await tcpAnswer()).toEqual(['10.0.0.1']);
    // Beyond the cap the oldest idle connections were closed (and the short idle timeout closes the rest).
    await until(() => stillOpen() < DEFAULT_TCP_LIMITS.maxConnections);
  });
});
