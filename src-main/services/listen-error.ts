/**
 * Turns a bind error into the message a technician can act on, in the form
 * "listen udp 0.0.0.0:53: address already in use".
 */
export function describeListenError(err: unknown, protocol: 'udp' | 'tcp', host: string, port: number): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `listen ${protocol} ${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${where}: address already in use (another program, e.g. dnsmasq or systemd-resolved, holds the port)`;
    case 'EACCES':
    case 'EPERM':
      return `${where}: permission denied: ports below 1024 need privileges. ${PRIVILEGE_HINT}`;
    case 'EADDRNOTAVAIL':
      return `${where}: address not available on this machine (the interface is down or its address changed)`;
    default:
      return `${where}: ${(err as Error | undefined)?.message ?? String(err)}`;
  }
}

export const PRIVILEGE_HINT =
  'On Linux grant the capability once (sudo setcap cap_net_bind_service=+ep "$(readlink -f "$(which node)")" for the headless server, or the same on the Bootwright binary) or run the headless server with the shipped systemd unit resources/systemd/bootwright.service (AmbientCapabilities=CAP_NET_BIND_SERVICE); on Windows run Bootwright as administrator.';
