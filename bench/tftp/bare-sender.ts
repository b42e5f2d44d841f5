/**
 * The reference: a bare Node TFTP sender in a few lines, the runtime's own
 * limit. It reads the whole file, answers blksize/windowsize/tsize with an
 * OACK, and sends the next window on each ACK from a connected socket (as
 * Bootwright does). No retransmission, no confinement, no events: never use
 * it for anything but this benchmark.
 *
 *   node --import tsx bench/tftp/bare-sender.ts <port> <root>
 */
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [portArg, root] = process.argv.slice(2);
const server = dgram.createSocket('udp4');
server.on('message', (request, client) => {
  const [file = '', , ...rest] = request.toString('latin1', 2).split('\0');
  const content = readFileSync(path.join(root!, file));
  const asked = new Map<string, string>();
  for (let i = 0; i + 1 < rest.length; i += 2) asked.set(rest[i]!.toLowerCase(), rest[i + 1]!);
  const blksize = Number(asked.get('blksize') ?? 512);
  const windowsize = Number(asked.get('windowsize') ?? 1);
  const last = Math.floor(content.length / blksize) + 1;
  let acked = 0;
  const socket = dgram.createSocket('udp4');
  const sendWindow = () => {
    for (let block = acked + 1; block <= Math.min(acked + windowsize, last); block++) {
      const header = Buffer.from([0, 3, (block >> 8) & 0xff, block & 0xff]);
      socket.send([header, content.subarray((block - 1) * blksize, block * blksize)]);
    }
  };
  socket.on('message', (ack) => {
    if (ack.readUInt16BE(0) !== 4) return socket.close();
    const block = ack.readUInt16BE(2);
    if (block <= acked && !(block === 0 && acked === 0)) return;
    acked = block;
    if (acked >= last) socket.close();
    else sendWindow();
  });
  socket.connect(client.port, client.address, () => {
    const oack: string[] = [];
    for (const [name, value] of asked) {
      if (name === 'blksize' || name === 'windowsize') oack.push(name, value);
      if (name === 'tsize') oack.push(name, String(content.length));
    }
    if (oack.length === 0) sendWindow();
    else socket.send(Buffer.concat([Buffer.from([0, 6]), Buffer.from(oack.map((s) => `${s}\0`).join(''), 'latin1')]));
  });
});
server.bind(Number(portArg), '127.0.0.1', () => process.stdout.write('ready\n'));
