/**
 * The reference: a bare Node UDP responder in a worker thread, answering
 * from a precomputed table and patching the ID — what the runtime can do
 * with no DNS logic at all. Several of these share the port with
 * SO_REUSEPORT where the runtime has it, like Bootwright's workers.
 */
import dgram from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';

interface BareConfig {
  address: string;
  port: number;
  reusePort: boolean;
  /** Answer `send`'s address lookup at once instead of on the next tick (the trick Bootwright uses). */
  literalLookup: boolean;
  /** [question section as latin1, full response with ID 0] */
  table: [string, Uint8Array][];
}

const config = workerData as BareConfig;
const table = new Map(config.table.map(([key, response]) => [key, Buffer.from(response)]));
const lookup = (address: string, _options: unknown, callback: (err: null, address: string, family: number) => void) => callback(null, address, 4);
const socket = dgram.createSocket({
  type: 'udp4',
  ...(config.reusePort ? { reusePort: true } : {}),
  ...(config.literalLookup ? { lookup } : {}),
} as dgram.SocketOptions);
socket.on('message', (msg, rinfo) => {
  const response = table.get(msg.toString('latin1', 12));
  if (!response) return;
  const out = Buffer.from(response);
  out[0] = msg[0]!;
  out[1] = msg[1]!;
  socket.send(out, rinfo.port, rinfo.address);
});
socket.bind(config.port, config.address, () => parentPort!.postMessage('ready'));
parentPort!.on('message', () => socket.close(() => process.exit(0)));
