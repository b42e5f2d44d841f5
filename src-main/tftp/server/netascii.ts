/**
 * Netascii encoding (RFC 1350 via RFC 764): end of line is CR LF and a bare
 * CR is sent as CR NUL. Files on disk use LF line ends; a CR LF already in
 * the file is kept as is, so a converted file never gains a second CR.
 */
export function toNetascii(input: Buffer): Buffer {
  let extra = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i];
    if (byte === 0x0a && input[i - 1] !== 0x0d) extra++;
    else if (byte === 0x0d && input[i + 1] !== 0x0a) extra++;
  }
  if (extra === 0) return input;
  const out = Buffer.allocUnsafe(input.length + extra);
  let at = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte === 0x0a && input[i - 1] !== 0x0d) {
      out[at++] = 0x0d;
      out[at++] = 0x0a;
    } else if (byte === 0x0d && input[i + 1] !== 0x0a) {
      out[at++] = 0x0d;
      out[at++] = 0x00;
    } else {
      out[at++] = byte;
    }
  }
  return out;
}
