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
    let finished = false;
    // Once only: a second close() would throw ERR_SOCKET_DGRAM_NOT_RUNNING out of an event callback.
    const finish = (err?: Error | null) => {
      if (finished) return;
      finished = true;
      try {
        socket.close();
      } catch {
        // Already closed.
      }
      if (err) reject(err);
      else resolve();
    };
    // A listener for the socket's whole life: an 'error' without one would be an uncaught exception.
    socket.on('error', finish);
    try {
      socket.bind({ address: datagram.bindAddress, port: 0, exclusive: true }, () => {
        // Runs from an event: anything thrown here would escape every promise, so nothing may.
        try {
          socket.setBroadcast(true);
          socket.send(datagram.packet, datagram.port, datagram.broadcast, (err) => finish(err));
        } catch (err) {
          finish(err instanceof Error ? err : new Error(String(err)));
        }
      });
    } catch (err) {
      finish(err instanceof Error ? err : new Error(String(err)));
    }
  });
