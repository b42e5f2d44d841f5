import { readFileSync } from 'node:fs';

/*
 * The MAC of a foreign DHCP server, when this machine's kernel knows it: UDP
 * sockets never see Ethernet headers, but the neighbour (ARP) table often
 * holds the LAN's router — the usual rogue server. Linux only
 * (/proc/net/arp); elsewhere, or when the entry is missing, null.
 */

const ARP_COMPLETE = 0x2;

/** The hardware address of `ip` in /proc/net/arp's text, or null (missing, incomplete, all zeros). */
export function macFromArpTable(text: string, ip: string): string | null {
  for (const line of text.split('\n').slice(1)) {
    const [address, , flags, mac] = line.trim().split(/\s+/);
    if (address !== ip || !mac || !flags) continue;
    if ((Number.parseInt(flags, 16) & ARP_COMPLETE) === 0) continue;
    if (!/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(mac) || mac === '00:00:00:00:00:00') continue;
    return mac.toLowerCase();
  }
  return null;
}

/** Looks `ip` up in the live table; null when it cannot be read. */
export function neighbourMac(ip: string): string | null {
  try {
    return macFromArpTable(readFileSync('/proc/net/arp', 'utf8'), ip);
  } catch {
    return null;
  }
}
