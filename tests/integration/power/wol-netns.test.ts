import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMagicPacket } from '../../../src-main/power/wol/magic-packet.js';
import { NetLab, skipNetnsTest, waitForOutput, type Netns } from '../../helpers/netns.js';
import { PcapStream } from './pcap-reader.js';

/*
 * The magic packet on a real wire. Two namespaces joined by two veth pairs
 * on two subnets: "snd" runs the production send path (as a child process
 * inside the namespace), "rcv" captures each link with tcpdump. The wake for
 * a host on the second subnet must leave on the second link only, from our
 * address there, to that subnet's broadcast address, UDP port 9, with the
 * exact magic packet bytes. Every address is inside the test's namespaces.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHILD = path.join(ROOT, 'tests/integration/power/wol-send-child.ts');
const skip = skipNetnsTest('WOL namespace test', ['tcpdump']);

describe.skipIf(skip)('Wake-on-LAN on the wire (network namespaces)', () => {
  let lab: NetLab;
  let sender: Netns;
  let captures: { a: PcapStream; b: PcapStream };
  let senderMacB: string;

  beforeAll(async () => {
    lab = await NetLab.create();
    sender = await lab.namespace('snd');
    const receiver = await lab.namespace('rcv');
    await lab.link(sender, 'lana', '10.77.1.1/24', receiver, 'lana', '10.77.1.2/24');
    await lab.link(sender, 'lanb', '10.77.2.1/24', receiver, 'lanb', '10.77.2.2/24');
    senderMacB = /link\/ether ([0-9a-f:]{17})/.exec(await sender.ip('link', 'show', 'lanb'))![1]!;
    const capture = async (ifname: string) => {
      const stream = new PcapStream();
      const child = receiver.spawn('tcpdump', ['-i', ifname, '-U', '-n', '-w', '-', 'udp']);
      child.stdout!.on('data', (chunk: Buffer) => stream.push(chunk));
      await waitForOutput(child, /listening on/);
      return stream;
    };
    captures = { a: await capture('lana'), b: await capture('lanb') };
  }, 60_000);

  afterAll(async () => lab?.destroy());

  async function send(mac: string, ip: string, port: number): Promise<{ name: string; address: string; broadcast: string }[]> {
    const out = await sender.must(process.execPath, ['--import', 'tsx', CHILD, mac, ip, String(port)], { timeoutMs: 30_000 });
    return JSON.parse(out.trim().split('\n').at(-1)!) as { name: string; address: string; broadcast: string }[];
  }

  it('leaves on the interface of the host subnet, to its broadcast address, port 9, with the exact bytes', async () => {
    const chosen = await send('52:54:00:12:34:56', '10.77.2.50', 9);
    expect(chosen).toEqual([{ name: 'lanb', address: '10.77.2.1', broadcast: '10.77.2.255' }]);
    const [packet] = await captures.b.waitFor(1);
    expect(packet).toMatchObject({
      ethSource: senderMacB,
      ethDestination: 'ff:ff:ff:ff:ff:ff',
      ipSource: '10.77.2.1',
      ipDestination: '10.77.2.255',
      destinationPort: 9,
    });
    expect(packet!.payload.length).toBe(102);
    expect(packet!.payload.subarray(0, 6).toString('hex')).toBe('ffffffffffff');
    expect(packet!.payload.subarray(6).toString('hex')).toBe('525400123456'.repeat(16));
    expect(decodeMagicPacket(packet!.payload).mac).toBe('52:54:00:12:34:56');

    // Then a wake for the first subnet (port 7): the first packet seen on lana is that one, so the first wake never left there.
    const second = await send('52:54:00:65:43:21', '10.77.1.60', 7);
    expect(second.map((via) => via.name)).toEqual(['lana']);
    const [onA] = await captures.a.waitFor(1);
    expect(onA).toMatchObject({ ipSource: '10.77.1.1', ipDestination: '10.77.1.255', destinationPort: 7 });
    expect(decodeMagicPacket(onA!.payload).mac).toBe('52:54:00:65:43:21');
    expect(captures.b.packets).toHaveLength(1);
  });
});
