import { mergeHops, type TraceHop } from './diagnostics-contract.js';

/*
 * Reads traceroute (Linux, `-n`), tracepath and tracert (Windows, `-d`)
 * output line by line. Pure, like ping-parser.ts. A hop line becomes one
 * row; tracepath prints a line per probe, so a hop may come twice — the
 * result merges them (`mergeHops`).
 */

// traceroute: " 3  10.0.0.1  1.0 ms * 10.0.0.2  2.0 ms !H" — hop number, then tokens
const TRACEROUTE_HOP = /^(\d+)\s+(.*)$/;
// tracepath: " 1:  127.0.0.1    0.031ms reached", " 2:  no reply", " 1?: [LOCALHOST]  pmtu 65535"
const TRACEPATH_HOP = /^(\d+)\??:\s+(.*)$/;
// tracert: "  1    <1 ms    <1 ms    <1 ms  127.0.0.1", "  2     *        *        *     Request timed out."
const TRACERT_HOP = /^(\d+)\s+((?:(?:<?\d+ ms|\*)\s+){3})(.*)$/;
// tracert's last hop when a router refuses: "  2  10.0.0.1  reports: Destination host unreachable." (no probe times)
const TRACERT_REPORT = /^(\d+)\s+(\S+)\s+reports:\s+(.+?)\.?$/;
// Where the run is going: "traceroute to host (192.0.2.1), …", "Tracing route to host [192.0.2.1]"
const DESTINATION = /^(?:traceroute6? to \S+ \(([^)]+)\)|Tracing route to (?:\S+ \[([^\]]+)\]|(\S+)))/;

export class TraceParser {
  private readonly rows: TraceHop[] = [];
  private destination: string | null = null;

  line(raw: string): TraceHop | null {
    const text = raw.trim();
    const dest = DESTINATION.exec(text);
    if (dest) {
      this.destination = dest[1] ?? dest[2] ?? dest[3] ?? null;
      return null;
    }
    const row = parseTracertReport(text) ?? parseTracertHop(text) ?? parseTracepathHop(text) ?? parseTracerouteHop(text);
    if (row) this.rows.push(row);
    return row;
  }

  /** One row per hop, in hop order (tracepath's repeated hop lines merged). */
  hops(): TraceHop[] {
    return mergeHops(this.rows);
  }

  /** Whether the last hop answered from the destination (or tracepath said "reached"). */
  reached(): boolean {
    const last = this.hops().at(-1);
    if (!last) return false;
    if (last.notes.includes('reached')) return true;
    return this.destination !== null && last.addresses.includes(this.destination);
  }
}

function parseTracerouteHop(text: string): TraceHop | null {
  const m = TRACEROUTE_HOP.exec(text);
  if (!m) return null;
  const hop: TraceHop = { hop: Number(m[1]), addresses: [], rtts_ms: [], notes: [] };
  const tokens = (m[2] ?? '').split(/\s+/).filter(Boolean);
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    if (token === '*') hop.rtts_ms.push(null);
    else if (/^[\d.]+$/.test(token) && tokens[i + 1] === 'ms') {
      hop.rtts_ms.push(Number(token));
      i += 1;
    }
    // Each probe repeats its annotation ("0.5 ms !H  0.4 ms !H"); the hop says it once.
    else if (token.startsWith('!')) addNote(hop, token);
    else if (/^\(.*\)$/.test(token)) continue; // "(addr)" after a name: -n is always given, but be lenient
    else if (!hop.addresses.includes(token)) hop.addresses.push(token);
  }
  // A hop line has probes; anything else with a leading number is not one.
  return hop.rtts_ms.length > 0 ? hop : null;
}

function parseTracepathHop(text: string): TraceHop | null {
  const m = TRACEPATH_HOP.exec(text);
  if (!m) return null;
  const rest = m[2] ?? '';
  const hop: TraceHop = { hop: Number(m[1]), addresses: [], rtts_ms: [], notes: [] };
  // The "1?: [LOCALHOST] pmtu N" line reports the local MTU, not a hop.
  if (rest.startsWith('[LOCALHOST]')) return null;
  if (rest.startsWith('no reply')) {
    hop.rtts_ms.push(null);
    return hop;
  }
  const tokens = rest.split(/\s+/).filter(Boolean);
  const [addr, ...more] = tokens;
  if (addr === undefined) return null;
  hop.addresses.push(addr);
  for (const token of more) {
    const time = /^([\d.]+)ms$/.exec(token);
    if (time) hop.rtts_ms.push(Number(time[1]));
    else if (token === 'reached' || token.startsWith('!') || token === 'asymm') addNote(hop, token);
  }
  return hop;
}

function addNote(hop: TraceHop, note: string): void {
  if (!hop.notes.includes(note)) hop.notes.push(note);
}

/** A hop that answered with an ICMP error instead of probe times: its address and the error as a note. */
function parseTracertReport(text: string): TraceHop | null {
  const m = TRACERT_REPORT.exec(text);
  if (!m) return null;
  return { hop: Number(m[1]), addresses: [m[2] ?? ''], rtts_ms: [], notes: [m[3] ?? 'unreachable'] };
}

function parseTracertHop(text: string): TraceHop | null {
  const m = TRACERT_HOP.exec(text);
  if (!m) return null;
  const hop: TraceHop = { hop: Number(m[1]), addresses: [], rtts_ms: [], notes: [] };
  for (const probe of (m[2] ?? '').trim().split(/\s+(?=<?\d|\*)/)) {
    if (probe === '*') hop.rtts_ms.push(null);
    else {
      const time = /^(<)?(\d+) ms$/.exec(probe.trim());
      // "<1 ms" is below the timer's resolution; report it as 0.
      if (time) hop.rtts_ms.push(time[1] ? 0 : Number(time[2]));
    }
  }
  const tail = (m[3] ?? '').trim();
  const bracketed = /\[([^\]]+)\]$/.exec(tail);
  if (bracketed?.[1]) hop.addresses.push(bracketed[1]);
  else if (tail !== '' && !/^Request timed out/i.test(tail) && !/unreachable/i.test(tail)) hop.addresses.push(tail);
  else if (tail !== '') hop.notes.push(tail.replace(/\.$/, ''));
  return hop;
}
