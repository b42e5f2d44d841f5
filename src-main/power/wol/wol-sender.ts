import dgram from 'node:dgram';

/** One magic packet on its way out of one interface. */
export interface WolDatagram {
  packet: Buffer;
  /** Our address on the interface: the socket binds here so the packet leaves on it. */
  bindAddress: string;
  /** The interface subnet's broadcast address. */
  broadcast: string;
  port: number;
}

/** Sends a datagram; tests replace this to observe what would leave. */
export type WolTransport = (datagram: WolDatagram) => Promise<void>;

/**
 * The real transport: a UDP socket bound to the interface's address with
 * SO_BROADCAST, sending to the directed broadcast address. Binding to the
 * address (not the wildcard) makes the kernel pick that interface's route
 * and source address, so the packet leaves on the right NIC.
 */
export const udpBroadcastTransport: WolTransport = (datagram) =>
  new Promise<void>((resolve, reject) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    const finish = (err?: Error | null) => {
      socket.close();
      if (err) reject(err);
      else resolve();
    };
    socket.once('error', finish);
    socket.bind({ address: datagram.bindAddress, port: 0, exclusive: true }, () => {
      try {
        socket.setBroadcast(true);
      } catch (err) {
        finish(err as Error);
        return;
      }
      socket.send(datagram.packet, datagram.port, datagram.broadcast, (err) => finish(err));
    });
  });
