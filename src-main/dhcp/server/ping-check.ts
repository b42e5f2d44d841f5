import { spawn } from 'node:child_process';
import type { Logger } from '../../core/logger.js';
import type { PingProbe } from './dhcp-types.js';

/**
 * The ping check before an OFFER (RFC 2131 §2.2, §4.4.1: a server SHOULD
 * probe an address before allocating it). Node has no ICMP sockets, so this
 * runs the system `ping` (iputils) once with a one-second wait; exit code 0
 * means something answered. Without a `ping` binary the check is skipped
 * (logged once) rather than blocking every offer.
 */
export function systemPingProbe(log: Logger, timeoutSeconds = 1): PingProbe {
  let missingLogged = false;
  return (address) =>
    new Promise((resolve) => {
      const child = spawn('ping', ['-n', '-q', '-c', '1', '-W', String(timeoutSeconds), address], { stdio: 'ignore' });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (!missingLogged) {
          missingLogged = true;
          log.warn(`ping check skipped: cannot run ping (${err.code ?? err.message}); install iputils-ping`);
        }
        resolve(false);
      });
      child.on('exit', (code) => resolve(code === 0));
    });
}
