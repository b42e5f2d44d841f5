import { describe, expect, it } from 'vitest';
import { readClientRequest } from '../../../../src-main/dhcp/server/client-request.js';
import { BROADCAST_FLAG, chaddrFromMac, clientMac, decode, dhcpPacket, encode, findOption, type DhcpPacket } from '../../../../src-main/dhcp/server/dhcp-codec.js';
import { MSG, OPT } from '../../../../src-main/dhcp/dhcp-options.js';
import { isProbeRequest, PROBE_CLIENT_ID, PROBE_MAC_PREFIX, probeDiscover, probeMac, readForeignOffer } from '../../../../src-main/dhcp/server/rogue-probe-packet.js';
import { macFromArpTable } from '../../../../src-main/dhcp/server/neighbour-mac.js';
import { expectRoundTrip } from '../../../helpers/codec-roundtrip.js';

const MAC = probeMac('eth0', '52:54:00:12:34:56');
const XID = 0x1234_5678;
const OWN = new Set(['192.168.88.2']);

function ip(text: string): Buffer {
  return Buffer.from(text.split('.').map(Number));
}

/** An OFFER as dnsmasq sends it to our probe. */
function offer(overrides: Partial<DhcpPacket> = {}, options?: DhcpPacket['options']): DhcpPacket {
  return {
    op: 2,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid: XID,
    secs: 0,
    flags: BROADCAST_FLAG,
    ciaddr: '0.0.0.0',
    yiaddr: '192.168.88.120',
    siaddr: '192.168.88.1',
    giaddr: '0.0.0.0',
    chaddr: chaddrFromMac(MAC),
    sname: '',
    file: '',
    options: options ?? [
      { code: OPT.MESSAGE_TYPE, data: Buffer.from([MSG.OFFER]) },
      { code: OPT.SERVER_ID, data: ip('192.168.88.1') },
      { code: OPT.LEASE_TIME, data: Buffer.from([0, 0, 0x0e, 0x10]) },
      { code: OPT.SUBNET_MASK, data: ip('255.255.255.0') },
      { code: OPT.ROUTER, data: Buffer.concat([ip('192.168.88.254'), ip('192.168.88.253')]) },
    ],
    ...overrides,
  };
}

/** Through the wire format, as the socket hands it over. */
function wire(packet: DhcpPacket): DhcpPacket {
  return decode(encode(packet));
}

describe('the probe DHCPDISCOVER', () => {
  it('uses a locally administered unicast MAC with our prefix, derived from the interface', () => {
    expect(MAC).toBe(`${PROBE_MAC_PREFIX}:12:34:56`);
    const first = Number.parseInt(MAC.slice(0, 2), 16);
    expect(first & 0x02).toBe(0x02); // locally administered
    expect(first & 0x01).toBe(0); // unicast
    // Without a MAC: from the name, stable, and different per interface.
    expect(probeMac('br0', null)).toMatch(/^0a:b0:07(:[0-9a-f]{2}){3}$/);
    expect(probeMac('br0', null)).toBe(probeMac('br0', null));
    expect(probeMac('br0', null)).not.toBe(probeMac('br1', null));
  });

  it('is a broadcast DISCOVER with the probe client id and no vendor class, and survives the codec', () => {
    const packet = probeDiscover(XID, MAC);
    expectRoundTrip({ codec: dhcpPacket, decodeTakesEnd: true }, packet);
    const decoded = wire(packet);
    expect(decoded).toMatchObject({ op: 1, xid: XID, flags: BROADCAST_FLAG, ciaddr: '0.0.0.0', giaddr: '0.0.0.0' });
    expect(clientMac(decoded)).toBe(MAC);
    expect(findOption(decoded, OPT.MESSAGE_TYPE)).toEqual(Buffer.from([MSG.DISCOVER]));
    expect(findOption(decoded, OPT.CLIENT_ID)).toEqual(PROBE_CLIENT_ID);
    // No "PXEClient": proxyDHCP servers stay silent, only address servers answer.
    expect(findOption(decoded, OPT.VENDOR_CLASS)).toBeUndefined();
  });

  it('is recognised by our server (never answered), unlike an ordinary DISCOVER from the same MAC', () => {
    const probe = readClientRequest(wire(probeDiscover(XID, MAC)));
    expect(probe && isProbeRequest(probe)).toBe(true);
    const ordinary = probeDiscover(XID, MAC);
    ordinary.options = ordinary.options.filter((o) => o.code !== OPT.CLIENT_ID);
    const client = readClientRequest(wire(ordinary));
    expect(client && isProbeRequest(client)).toBe(false);
  });
});

describe('reading OFFERs to the probe', () => {
  const expectFor = { xid: XID, mac: MAC };

  it('describes a foreign server: its id, source, offered address, mask, first router, lease time', () => {
    expect(readForeignOffer(wire(offer()), '192.168.88.1', expectFor, OWN)).toEqual({
      server_id: '192.168.88.1',
      source_ip: '192.168.88.1',
      mac: null,
      offered_ip: '192.168.88.120',
      subnet_mask: '255.255.255.0',
      router: '192.168.88.254',
      lease_seconds: 3600,
    });
  });

  it('takes the source address when the OFFER carries no server id', () => {
    const bare = offer({}, [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([MSG.OFFER]) }]);
    expect(readForeignOffer(wire(bare), '10.1.1.1', expectFor, OWN)).toMatchObject({ server_id: '10.1.1.1', source_ip: '10.1.1.1', router: null, subnet_mask: null, lease_seconds: null });
  });

  it.each([
    ['another probe\'s xid', offer({ xid: XID + 1 }), '192.168.88.1'],
    ['another client\'s chaddr', offer({ chaddr: chaddrFromMac('52:54:00:00:00:01') }), '192.168.88.1'],
    ['a request, not a reply', offer({ op: 1 }), '192.168.88.1'],
    ['an ACK', offer({}, [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([MSG.ACK]) }, { code: OPT.SERVER_ID, data: ip('192.168.88.1') }]), '192.168.88.1'],
    ['a proxyDHCP offer (no address)', offer({ yiaddr: '0.0.0.0' }), '192.168.88.1'],
    ['our own server (server id)', offer({}, [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([MSG.OFFER]) }, { code: OPT.SERVER_ID, data: ip('192.168.88.2') }]), '192.168.88.7'],
    ['our own server (source)', offer(), '192.168.88.2'],
  ])('ignores %s', (_label, packet, source) => {
    expect(readForeignOffer(wire(packet), source, expectFor, OWN)).toBeNull();
  });
});

describe('the neighbour table', () => {
  const ARP = [
    'IP address       HW type     Flags       HW address            Mask     Device',
    '192.168.88.1     0x1         0x2         52:54:00:AA:BB:01     *        eth0',
    '192.168.88.9     0x1         0x0         00:00:00:00:00:00     *        eth0',
    '',
  ].join('\n');

  it('gives a complete entry\'s MAC (lowercase) and null for incomplete or missing ones', () => {
    expect(macFromArpTable(ARP, '192.168.88.1')).toBe('52:54:00:aa:bb:01');
    expect(macFromArpTable(ARP, '192.168.88.9')).toBeNull();
    expect(macFromArpTable(ARP, '192.168.88.77')).toBeNull();
    expect(macFromArpTable('', '192.168.88.1')).toBeNull();
  });
});
