import net, { type AddressInfo } from 'node:net';

/**
 * Connected TCP pairs on 127.0.0.1 for tests of the native addon's threads:
 * one listening server, and for each connect() the server's end (what the
 * addon reads or writes) with the client's. With pauseOnConnect, Node never
 * reads the server's end, so a native reader is its only one.
 */
export class LoopbackPairs {
  private readonly waiting: ((socket: net.Socket) => void)[] = [];
  private readonly server: net.Server;

  private constructor(options: { pauseOnConnect: boolean }) {
    this.server = net.createServer({ pauseOnConnect: options.pauseOnConnect }, (socket) => {
      socket.on('error', () => undefined);
      this.waiting.shift()?.(socket);
    });
  }

  static async listen(options: { pauseOnConnect?: boolean } = {}): Promise<LoopbackPairs> {
    const pairs = new LoopbackPairs({ pauseOnConnect: options.pauseOnConnect ?? false });
    await new Promise<void>((resolve) => pairs.server.listen(0, '127.0.0.1', resolve));
    return pairs;
  }

  async connect(): Promise<{ serverSide: net.Socket; client: net.Socket }> {
    const serverSide = new Promise<net.Socket>((resolve) => this.waiting.push(resolve));
    const client = net.connect((this.server.address() as AddressInfo).port, '127.0.0.1');
    client.on('error', () => undefined);
    return { serverSide: await serverSide, client };
  }

  close(): void {
    this.server.close();
  }
}
