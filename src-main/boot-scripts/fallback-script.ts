import { IPXE_SHEBANG, ipxeSafeText } from '../profiles/ipxe-syntax.js';

/**
 * Fixed scripts that need no template and cannot fail: what a machine gets
 * when its own script cannot be built or must not be served. How each ends
 * matters to the entry script's loop: `exit 1` makes it retry, `exit 0` hands
 * the machine back to its firmware (https://ipxe.org/cmd/exit).
 */

export const FALLBACK_RETRY_SECONDS = 10;

/** The profile's template failed at boot: show why on the machine's screen, then let the entry script retry. */
export function renderFailedScript(what: string, error: string): string {
  return lines(
    IPXE_SHEBANG,
    `echo Bootwright could not build the boot script of ${ipxeSafeText(what, 80)}:`,
    `echo ${ipxeSafeText(error)}`,
    `echo Fix it in Bootwright. Retrying in ${FALLBACK_RETRY_SECONDS} seconds...`,
    `sleep ${FALLBACK_RETRY_SECONDS}`,
    'exit 1',
  );
}

/** The MAC is refused by the access lists: no boot script, back to the firmware. */
export function deniedScript(mac: string): string {
  return lines(IPXE_SHEBANG, `echo Bootwright: access denied, this machine (${ipxeSafeText(mac, 17)}) may not boot from the network.`, 'sleep 5', 'exit 0');
}

/** A request for a per-host script without a usable MAC: retrying would not help. */
export function missingMacScript(): string {
  return lines(
    IPXE_SHEBANG,
    'echo Bootwright: the boot script URL names no valid MAC address (mac=...).',
    'echo Check the iPXE entry script (Services, iPXE script).',
    'sleep 5',
    'exit 0',
  );
}

/** Boot from the local disk, saying why. */
export function localBootScript(why: string): string {
  return lines(IPXE_SHEBANG, `echo Bootwright: ${ipxeSafeText(why)}`, 'echo Booting from the local disk...', 'exit 0');
}

function lines(...parts: string[]): string {
  return `${parts.join('\n')}\n`;
}
