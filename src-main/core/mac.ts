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
