import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src-main/core/logger.js';
import type { Icmpv6Listener, Icmpv6Opener } from '../../../../src-main/dhcp/server/icmpv6-socket.js';
import { isValidSolicitation, readRouterAdvertisement, routerAdvertisement } from '../../../../src-main/dhcp/server/ra-packet.js';
import { RaResponder } from '../../../../src-main/dhcp/server/ra-responder.js';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, scope: () => quiet };

const RS = Buffer.from([133, 0, 0, 0, 0, 0, 0, 0]);

/** A responder on a fake socket: what it sent, and a way to hand it packets. */
function kit(own: string[] = ['fe80::2']) {
  const sent: { to: string; bytes: Buffer }[] = [];
  const foreign: string[] = [];
  let listener: Icmpv6Listener | null = null;
  let closed = false;
  const open: Icmpv6Opener = (_name, onPacket) => {
    listener = onPacket;
    return { send: (to, bytes) => sent.push({ to, bytes: Buffer.from(bytes) }), close: () => (closed = true) };
  };
  const responder = new RaResponder('eth0', '52:54:00:aa:bb:cc', { open, log: quiet, ownAddresses: () => new Set(own), onForeignRouter: (_name, source) => foreign.push(source) });
  const receive = (type: number, source: string, hopLimit: number, bytes: Buffer) => listener?.(type, source, hopLimit, bytes);
  return { responder, sent, foreign, receive, closed: () => closed };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Router Advertisement packet', () => {
  it('says router lifetime 0, M=0, O=0, no prefix, and carries our MAC as source link-layer address', () => {
    const bytes = routerAdvertisement('52:54:00:aa:bb:cc');
    expect(bytes.length).toBe(24);
    expect(readRouterAdvertisement(bytes)).toEqual({ managed: false, other: false, routerLifetimeSeconds: 0 });
    expect([...bytes.subarray(16)]).toEqual([1, 1, 0x52, 0x54, 0x00, 0xaa, 0xbb, 0xcc]);
    expect(routerAdvertisement(null).length).toBe(16);
  });

  it('takes a solicitation only with hop limit 255 (RFC 4861 §6.1.1) and a whole header', () => {
    expect(isValidSolicitation(133, 255, RS)).toBe(true);
    expect(isValidSolicitation(133, -1, RS)).toBe(true);
    expect(isValidSolicitation(133, 64, RS)).toBe(false);
    expect(isValidSolicitation(133, 255, RS.subarray(0, 4))).toBe(false);
    expect(isValidSolicitation(134, 255, RS)).toBe(false);
  });
});

describe('RaResponder', () => {
  it('announces when started and answers a Router Solicitation to all nodes', async () => {
    const { responder, sent, receive } = kit();
    responder.start();
    expect(sent).toEqual([{ to: 'ff02::1', bytes: routerAdvertisement('52:54:00:aa:bb:cc') }]);
    await settle(60);
    receive(133, 'fe80::5054:ff:fe12:3456', 255, RS);
    expect(sent.length).toBe(2);
  });

  it('coalesces solicitations that come faster than one RA per 50 ms', async () => {
    const { responder, sent, receive } = kit();
    responder.start();
    for (let i = 0; i < 10; i += 1) receive(133, `fe80::${i + 10}`, 255, RS);
    expect(sent.length).toBe(1);
    await settle(120);
    expect(sent.length).toBe(2);
    responder.stop();
  });

  it('ignores a solicitation that crossed a router (hop limit below 255)', async () => {
    const { responder, sent, receive } = kit();
    responder.start();
    await settle(60);
    receive(133, 'fe80::9', 64, RS);
    expect(sent.length).toBe(1);
  });

  it('stands down for good when another router advertises, and ignores RAs from our own addresses', async () => {
    const { responder, sent, foreign, receive, closed } = kit(['fe80::2']);
    responder.start();
    receive(134, 'fe80::2', 255, routerAdvertisement(null));
    expect(foreign).toEqual([]);
    receive(134, 'fe80::1', 255, routerAdvertisement(null));
    expect(foreign).toEqual(['fe80::1']);
    expect(responder.standingDownFor).toBe('fe80::1');
    expect(closed()).toBe(true);
    await settle(60);
    receive(133, 'fe80::9', 255, RS);
    responder.announce();
    expect(sent.length).toBe(1);
  });
});
