import dgram from 'node:dgram';
import type { ManagedService } from '../../src-main/services/service-manager.js';
import { describeListenError } from '../../src-main/services/listen-error.js';

/** A minimal real UDP server, to exercise the service manager with real sockets. */
export class UdpEchoService implements ManagedService {
  readonly description = 'test UDP echo';
  readonly defaultAutoStart: boolean;
  readonly name: string;
  port: number;
  private socket: dgram.Socket | null = null;

  constructor(name: string, port: number, defaultAutoStart = false) {
    this.name = name;
    this.port = port;
    this.defaultAutoStart = defaultAutoStart;
  }

  async start(): Promise<void> {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => socket.send(msg, rinfo.port, rinfo.address));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', (err) => reject(new Error(describeListenError(err, 'udp', '127.0.0.1', this.port))));
      socket.bind(this.port, '127.0.0.1', () => resolve());
    });
    this.socket = socket;
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  listenAddresses(): string[] {
    return this.socket ? [`udp 127.0.0.1:${this.socket.address().port}`] : [];
  }
}
