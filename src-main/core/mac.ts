/**
 * MAC addresses are accepted in the common spellings (colons, dashes, Cisco
 * dots, bare hex) and always stored and returned as lowercase with colons.
 */
const MAC_FORMS = [
  /^([0-9a-f]{2})[:]([0-9a-f]{2})[:]([0-9a-f]{2})[:]([0-9a-f]{2})[:]([0-9a-f]{2})[:]([0-9a-f]{2})$/i,
  /^([0-9a-f]{2})-([0-9a-f]{2})-([0-9a-f]{2})-([0-9a-f]{2})-([0-9a-f]{2})-([0-9a-f]{2})$/i,
  /^([0-9a-f]{2})([0-9a-f]{2})\.([0-9a-f]{2})([0-9a-f]{2})\.([0-9a-f]{2})([0-9a-f]{2})$/i,
  /^([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i,
];

/** Returns the canonical form, or null when `input` is no MAC address. */
export function normalizeMac(input: string): string | null {
  const trimmed = input.trim();
  for (const form of MAC_FORMS) {
    const m = form.exec(trimmed);
    if (m) return m.slice(1, 7).join(':').toLowerCase();
  }
  return null;
}

/** JSON Schema pattern that admits every accepted spelling (for the OpenAPI document). */
export const MAC_INPUT_PATTERN =
  '^([0-9A-Fa-f]{2}([:-])){5}[0-9A-Fa-f]{2}$|^[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4}$|^[0-9A-Fa-f]{12}$';

/**
 * Why a canonical MAC cannot be a network card's own address, or null: the
 * all-zero address (no address), the broadcast address, or a group address
 * (IEEE 802 I/G bit, the least significant bit of the first octet: multicast).
 * Reservations, hosts, access lists and wake targets name one NIC each.
 */
export function unicastMacProblem(mac: string): string | null {
  if (mac === '00:00:00:00:00:00') return `${mac} is the all-zero address, not a network card's`;
  if (mac === 'ff:ff:ff:ff:ff:ff') return `${mac} is the broadcast address, not a network card's`;
  if ((parseInt(mac.slice(0, 2), 16) & 1) === 1) return `${mac} is a multicast (group) address, not a network card's`;
  return null;
}
