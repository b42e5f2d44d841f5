import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { BmcTarget } from '../../../src-main/power/bmc-client.js';
import { withConnection } from '../../../src-main/power/bmc-connector.js';
import { BmcError } from '../../../src-main/power/bmc-error.js';
import { channelAuthCapabilities } from '../../../src-main/power/ipmi/commands.js';
import { connectIpmi, ipmiCapabilities } from '../../../src-main/power/ipmi/ipmi-connection.js';
import { bmcResponse, lanMessage, type LanMessage } from '../../../src-main/power/ipmi/lan-message.js';
import { AuthType, ipmiDatagram } from '../../../src-main/power/ipmi/session-packet.js';
import { UdpExchange } from '../../../src-main/power/ipmi/udp-exchange.js';

/*
 * A hostile IPMI "BMC" on 127.0.0.1: it answers every datagram with
 * truncated, wrong-length and mis-numbered packets, or with a
 * well-framed answer that lies about its contents. Our client must end each
 * conversation with a BmcError (timeout when nothing usable came, protocol
 * when a matching answer is malformed) — never a throw into the event loop,
 * which vitest would report as an unhandled error — and within the
 * operation's deadline even when every single request is still allowed more.
 */
const TIMING = { timeoutMs: 600, retries: 1 };
const CAPS = channelAuthCapabilities.encode({
  channel: 1,
  authTypes: 0x04,
  extendedCapabilities: true,
  kgSet: false,
  perMessageAuthDisabled: false,
  userLevelAuthDisabled: false,
  nonNullUsernames: true,
  nullUsernames: false,
  anonymousLogin: false,
  supportsV15: true,
  supportsV20: true,
  oemId: 0,
  oemAux: 0,
});

/** RMCP header (4) + auth type (1) + sequence (4) + session id (4): the message length byte of an auth-type-none v1.5 packet. */
const V15_LENGTH_AT = 13;

type Mode = 'garbage' | 'short-caps' | 'caps-then-garbage' | 'caps-then-silence';

const sockets: dgram.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) await new Promise<void>((resolve) => socket.close(() => resolve()));
});

function v15(message: LanMessage): Buffer {
  return ipmiDatagram.encode({ format: 'v15', authType: AuthType.NONE, sequence: 0, sessionId: 0, message: lanMessage.encode(message) });
}

/**
 * Spoilt copies of a good answer that no decoder may take: every prefix,
 * random bytes, and the message length byte (v1.5 session header, the byte
 * before the message) made longer and shorter than what follows.
 */
function spoiled(good: Buffer): Buffer[] {
  const out: Buffer[] = [Buffer.alloc(0), randomBytes(1), randomBytes(64)];
  for (let length = 1; length < good.length; length += 1) out.push(good.subarray(0, length));
  for (const delta of [1, 7, 200, -1, -3]) {
    const bad = Buffer.from(good);
    bad[V15_LENGTH_AT] = (bad[V15_LENGTH_AT]! + delta) & 0xff;
    out.push(bad);
  }
  return out;
}

async function startHostileBmc(mode: Mode): Promise<number> {
  const socket = dgram.createSocket('udp4');
  sockets.push(socket);
  const send = (to: dgram.RemoteInfo, datagram: Buffer) => socket.send(datagram, to.port, to.address, () => undefined);
  socket.on('message', (msg, from) => {
    let request: LanMessage | undefined;
    try {
      const packet = ipmiDatagram.decode(msg);
      if (packet.format === 'v15') request = lanMessage.decode(packet.message);
    } catch {
      request = undefined;
    }
    const caps = request ? v15(bmcResponse(request, 0, CAPS)) : randomBytes(40);
    if (mode === 'short-caps' && request) {
      // Well framed, the right sequence number, completion code 0 — and two bytes of data.
      send(from, v15(bmcResponse(request, 0, CAPS.subarray(0, 2))));
      return;
    }
    if ((mode === 'caps-then-garbage' || mode === 'caps-then-silence') && request) {
      send(from, caps);
      return;
    }
    if (mode === 'caps-then-silence') return;
    for (const bad of spoiled(caps)) send(from, bad);
    if (request) {
      // Right shape, wrong sequence number and wrong command: not an answer to what was asked.
      send(from, v15({ ...bmcResponse(request, 0, CAPS), seq: (request.seq + 1) & 0x3f }));
      send(from, v15({ ...bmcResponse(request, 0, CAPS), cmd: request.cmd ^ 1 }));
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket.address().port;
}

function target(port: number): BmcTarget {
  return { protocol: 'ipmi', address: '127.0.0.1', port, username: 'admin', password: 'secret', verifyTls: true, cipherSuite: null, privilege: 'administrator' };
}

async function bmcFailure(promise: Promise<unknown>): Promise<BmcError> {
  const err = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(err).toBeInstanceOf(BmcError);
  return err as BmcError;
}

describe('IPMI client against a hostile BMC', () => {
  it('ignores truncated, wrong-length and mis-numbered answers and ends in a timeout', async () => {
    const port = await startHostileBmc('garbage');
    expect((await bmcFailure(ipmiCapabilities('127.0.0.1', port, TIMING))).reason).toBe('timeout');
  });

  it('reports a matching answer with truncated data as a protocol error', async () => {
    const port = await startHostileBmc('short-caps');
    const err = await bmcFailure(ipmiCapabilities('127.0.0.1', port, TIMING));
    expect(err.reason).toBe('protocol');
    expect(err.message).toMatch(/malformed Get Channel Authentication Capabilities/);
  });

  it('survives garbage during the RMCP+ handshake', async () => {
    const port = await startHostileBmc('caps-then-garbage');
    expect((await bmcFailure(connectIpmi(target(port), TIMING))).reason).toBe('timeout');
  });

  it('stops at the operation deadline although each request may still wait', async () => {
    const port = await startHostileBmc('caps-then-silence');
    const slow = { timeoutMs: 20_000, retries: 0 };
    const err = await bmcFailure(withConnection((t, signal) => connectIpmi(t, slow, signal), target(port), async () => 'never', { operationMs: 500 }));
    expect(err.reason).toBe('timeout');
    expect(err.message).toMatch(/whole operation's time limit/);
  });

  it('turns any error a check of an answer throws into a protocol BmcError', async () => {
    const port = await startHostileBmc('garbage');
    const exchange = await UdpExchange.open('127.0.0.1', port);
    try {
      const accept = (msg: Buffer) => msg.readUInt32BE(1_000) === 0; // a RangeError, as a decoder bug would throw
      const err = await bmcFailure(exchange.exchange(() => Buffer.from([6, 0, 0xff, 7]), accept, { attemptMs: 500, retries: 0 }));
      expect(err.reason).toBe('protocol');
      expect(err.message).toMatch(/malformed answer/);
    } finally {
      exchange.close();
    }
  });

  it('refuses an address the resolver would cut short (NUL) before any socket is opened', async () => {
    const err = await bmcFailure(connectIpmi({ ...target(623), address: 'a\u0000b' }, TIMING));
    expect(err.reason).toBe('unreachable');
    expect(err.message).toMatch(/not a valid BMC address/);
  });
});
