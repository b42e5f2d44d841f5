import { describe, expect, it } from 'vitest';
import { readClientRequest } from '../../../../src-main/dhcp/server/client-request.js';
import {
  chaddrFromMac,
  clientMac,
  decode,
  DhcpDecodeError,
  dhcpPacket,
  encode,
  encodingLength,
  findOption,
  MIN_PACKET_LENGTH,
  type DhcpPacket,
} from '../../../../src-main/dhcp/server/dhcp-codec.js';
import { decodeOptionValue, OPT } from '../../../../src-main/dhcp/dhcp-options.js';
import { expectCapturedRoundTrip, expectRoundTrip, loadHexFixtures, type CodecAdapter } from '../../../helpers/codec-roundtrip.js';

const FIXTURES = loadHexFixtures('dhcp');

function fixture(name: string): Buffer {
  const found = FIXTURES.find((f) => f.name === name);
  if (!found) throw new Error(`no DHCP fixture ${name}`);
  return found.bytes;
}

/**
 * Our encoder pads every packet to the BOOTP minimum of 300 bytes (RFC 1542
 * §3.2.1); a shorter capture (perfdhcp's) re-encodes to itself plus zero padding.
 */
const dhcp: CodecAdapter<DhcpPacket> = {
  codec: dhcpPacket,
  decodeTakesEnd: true,
  reencoded: (captured) => Buffer.concat([captured, Buffer.alloc(Math.max(0, MIN_PACKET_LENGTH - captured.length))]),
};

function packet(overrides: Partial<DhcpPacket> = {}): DhcpPacket {
  return {
    op: 1,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid: 0x12345678,
    secs: 3,
    flags: 0x8000,
    ciaddr: '0.0.0.0',
    yiaddr: '0.0.0.0',
    siaddr: '0.0.0.0',
    giaddr: '0.0.0.0',
    chaddr: chaddrFromMac('52:54:00:12:34:56'),
    sname: '',
    file: '',
    options: [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([1]) }],
    ...overrides,
  };
}

describe('DHCP codec round trip over captured packets', () => {
  const files = FIXTURES.map((f) => f.name);

  it('has fixtures from udhcpc, dhclient, perfdhcp and dnsmasq', () => {
    for (const source of ['udhcpc', 'dhclient', 'perfdhcp', 'dnsmasq']) expect(files.some((f) => f.startsWith(source))).toBe(true);
  });

  for (const file of files) {
    it(`decodes, re-encodes and decodes ${file} identically`, () => {
      const decoded = expectCapturedRoundTrip(dhcp, fixture(file), file);
      expect(decoded.options.some((o) => o.code === OPT.MESSAGE_TYPE)).toBe(true);
    });
  }

  it('reads the client facts of the udhcpc PXE discover', () => {
    const client = readClientRequest(decode(fixture('udhcpc-discover-pxe-arch7.hex')))!;
    expect(client.type).toBe(1);
    expect(client.pxe).toBe(true);
    expect(client.vendorClass).toBe('PXEClient:Arch:00007:UNDI:003016');
    expect(client.arch).toBe(7);
    expect(client.hostname).toBe('capbox');
    expect(client.mac).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
  });

  it('reads the boot file of the dnsmasq PXE offer', () => {
    const offer = decode(fixture('dnsmasq-offer-pxe.hex'));
    expect(offer.op).toBe(2);
    expect(offer.file).toBe('undionly.kpxe');
    expect(offer.siaddr).toBe('10.79.0.1');
    expect(decodeOptionValue(OPT.SERVER_ID, findOption(offer, OPT.SERVER_ID)!)).toBe('10.79.0.1');
  });

  it('reads giaddr of the relayed perfdhcp discover', () => {
    const discover = decode(fixture('perfdhcp-discover-relayed.hex'));
    expect(discover.giaddr).toBe('10.79.0.2');
  });
});

describe('DHCP codec', () => {
  it('round-trips a synthetic packet with many options', () => {
    expectRoundTrip(
      dhcp,
      packet({
        op: 2,
        yiaddr: '10.0.0.5',
        siaddr: '10.0.0.1',
        sname: '10.0.0.1',
        file: 'undionly.kpxe',
        options: [
          { code: OPT.MESSAGE_TYPE, data: Buffer.from([2]) },
          { code: OPT.SERVER_ID, data: Buffer.from([10, 0, 0, 1]) },
          { code: OPT.LEASE_TIME, data: Buffer.from([0, 0, 14, 16]) },
          { code: 80, data: Buffer.alloc(0) },
          { code: OPT.CLIENT_UUID, data: Buffer.alloc(17, 1) },
        ],
      }),
    );
  });

  it('splits options longer than 255 bytes and joins them again (RFC 3396)', () => {
    const long = Buffer.alloc(600, 0x41);
    const value = packet({ options: [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([5]) }, { code: OPT.BOOTFILE_NAME, data: long }] });
    const bytes = encode(value);
    expect(bytes.length).toBe(240 + 3 + (600 + 3 * 2) + 1);
    expectRoundTrip(dhcp, value);
    expect(decode(bytes).options[1]!.data.equals(long)).toBe(true);
  });

  it('pads short packets to the BOOTP minimum of 300 bytes (RFC 1542)', () => {
    const value = packet();
    expect(encodingLength(value)).toBe(MIN_PACKET_LENGTH);
    expect(encode(value).length).toBe(MIN_PACKET_LENGTH);
  });

  it('reads options from file and sname when option 52 says so (RFC 2131 §4.1)', () => {
    const bytes = encode(packet({ options: [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([1]) }, { code: OPT.OVERLOAD, data: Buffer.from([3]) }] }));
    // file field (offset 108) then sname (44) carry options.
    Buffer.from([OPT.HOSTNAME, 3, 0x61, 0x62, 0x63, 255]).copy(bytes, 108);
    Buffer.from([OPT.DOMAIN_NAME, 2, 0x78, 0x79, 255]).copy(bytes, 44);
    const decoded = decode(bytes);
    expect(decoded.file).toBe('');
    expect(decoded.sname).toBe('');
    expect(decoded.options.map((o) => o.code)).toEqual([OPT.MESSAGE_TYPE, OPT.OVERLOAD, OPT.HOSTNAME, OPT.DOMAIN_NAME]);
    expectRoundTrip(dhcp, decoded);
  });

  it('formats the client MAC only for Ethernet addresses', () => {
    expect(clientMac(packet())).toBe('52:54:00:12:34:56');
    expect(clientMac(packet({ htype: 6 }))).toBeNull();
  });

  it('rejects what it cannot encode', () => {
    expect(() => encode(packet({ ciaddr: '300.1.1.1' }))).toThrow(RangeError);
    expect(() => encode(packet({ file: 'x'.repeat(129) }))).toThrow(RangeError);
    expect(() => encode(packet({ options: [{ code: 255, data: Buffer.alloc(0) }] }))).toThrow(RangeError);
    expect(() => encode(packet(), Buffer.alloc(10))).toThrow(RangeError);
  });
});

describe('DHCP decoder on hostile input', () => {
  const valid = encode(packet({ options: [{ code: OPT.MESSAGE_TYPE, data: Buffer.from([1]) }, { code: OPT.HOSTNAME, data: Buffer.from('abc') }] }));

  it('rejects a truncated header', () => {
    expect(() => decode(valid.subarray(0, 239))).toThrow(DhcpDecodeError);
    expect(() => decode(Buffer.alloc(0))).toThrow(DhcpDecodeError);
  });

  it('rejects a missing magic cookie', () => {
    const copy = Buffer.from(valid);
    copy.writeUInt32BE(0, 236);
    expect(() => decode(copy)).toThrow(/magic cookie/);
  });

  it('rejects an option that runs past the end', () => {
    const copy = Buffer.from(valid.subarray(0, 246));
    copy[243] = OPT.HOSTNAME;
    copy[244] = 200;
    expect(() => decode(copy)).toThrow(/runs past the end/);
  });

  it('rejects an option without its length byte', () => {
    const copy = Buffer.concat([valid.subarray(0, 240), Buffer.from([OPT.HOSTNAME])]);
    expect(() => decode(copy)).toThrow(/no length byte/);
  });

  it('rejects offsets outside the buffer', () => {
    expect(() => decode(valid, 10, valid.length + 1)).toThrow(DhcpDecodeError);
    expect(() => decode(valid, 20, 10)).toThrow(DhcpDecodeError);
  });

  it('accepts a packet without END (ends at the buffer end)', () => {
    const copy = Buffer.from(valid.subarray(0, 240 + 3));
    expect(decode(copy).options).toHaveLength(1);
  });
});
