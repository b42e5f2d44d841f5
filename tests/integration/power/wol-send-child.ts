/*
 * Runs inside a test network namespace (`ip netns exec <ns> node --import tsx
 * wol-send-child.ts <mac> <host-ip|-> <port> [interface]`): reads that
 * namespace's interfaces and sends one magic packet with the production
 * code path — interface choice, packet encoding, bound broadcast socket.
 * Prints what it chose as one JSON line.
 */
import { readNics } from '../../../src-main/network/nic-reader.js';
import { encodeMagicPacket } from '../../../src-main/power/wol/magic-packet.js';
import { chooseWolInterfaces, wolInterfaces } from '../../../src-main/power/wol/wol-interfaces.js';
import { udpBroadcastTransport } from '../../../src-main/power/wol/wol-sender.js';

const [mac, ip, port, iface] = process.argv.slice(2);
if (!mac || !ip || !port) {
  console.error('usage: wol-send-child.ts <mac> <host-ip|-> <port> [interface]');
  process.exit(2);
}
const chosen = chooseWolInterfaces(wolInterfaces(readNics(), new Set()), { ip: ip === '-' ? null : ip, interface: iface ?? null });
const packet = encodeMagicPacket({ mac, password: null });
for (const via of chosen) await udpBroadcastTransport({ packet, bindAddress: via.address, broadcast: via.broadcast, port: Number(port) });
console.log(JSON.stringify(chosen.map((via) => ({ name: via.name, address: via.address, broadcast: via.broadcast }))));
