import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { TcpConnections } from '../../../../src-main/dns/server/tcp-connections.js';

/*
 * The per-client cap counts an IPv6 client by its /64 (one host holds a whole
 * /64 and could rotate addresses). This machine's loopback has only ::1, so
 * the sockets here are stand-ins carrying the remote address; the real-socket
 * behaviour is in tests/integration/dns/server/tcp-connections.test.ts.
 */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      this.emit('close');
    }
    return this;
  }
  setTimeout(): this {
    return this;
  }
}

function admit(connections: TcpConnections, address: string): boolean {
  return connections.admit(new FakeSocket(address) as unknown as net.Socket);
}

describe('DNS TCP per-client cap for IPv6', () => {
  it('counts addresses of one /64 together and other /64s apart', () => {
    const connections = new TcpConnections({ maxPerClient: 3, idleMs: 60_000, busyIdleMs: 30_000 });
    expect(['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:aaaa::9'].map((a) => admit(connections, a))).toEqual([true, true, true]);
    // A fourth address of the same /64 is the same client.
    expect(admit(connections, '2001:db8:1:2:ffff::1')).toBe(false);
    // The next /64 is another client; IPv4-mapped addresses count as the IPv4 address.
    expect(admit(connections, '2001:db8:1:3::1')).toBe(true);
    expect(['::ffff:192.0.2.1', '192.0.2.1', '::ffff:192.0.2.1'].map((a) => admit(connections, a))).toEqual([true, true, true]);
    expect(admit(connections, '192.0.2.1')).toBe(false);
    expect(connections.size).toBe(7);
  });
});
