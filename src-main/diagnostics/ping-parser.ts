import type { PingReply } from './diagnostics-contract.js';

/*
 * Reads ping's output line by line (iputils on Linux, ping.exe on Windows).
 * Pure: the runner feeds it lines as they arrive and streams the rows it
 * returns; the summary comes from the statistics lines at the end, or is
 * counted from the rows when the run was cut short before them.
 */

export interface PingSummary {
  transmitted: number;
  received: number;
  loss_percent: number;
  min_ms: number | null;
  avg_ms: number | null;
  max_ms: number | null;
}

// iputils: "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.026 ms" (also "from host (addr)")
const UNIX_REPLY = /^\d+ bytes from (.+?): icmp_seq=(\d+) ttl=(\d+)(?: time=([\d.]+) ms)?/;
// iputils error reports: "From 10.9.0.1 icmp_seq=1 Destination Host Unreachable"
const UNIX_ERROR = /^From (\S+?)(?: \(([^)]+)\))?:? icmp_seq=(\d+) (.+)$/;
// "3 packets transmitted, 3 received, +1 errors, 0% packet loss, time 406ms"
const UNIX_COUNTS = /^(\d+) packets transmitted, (\d+) (?:packets )?received,.*?([\d.]+)% packet loss/;
// "rtt min/avg/max/mdev = 0.026/0.031/0.035/0.004 ms" (older: "round-trip min/avg/max")
const UNIX_RTT = /^(?:rtt|round-trip) min\/avg\/max(?:\/\w+)? = ([\d.]+)\/([\d.]+)\/([\d.]+)/;
// Windows: "Reply from 127.0.0.1: bytes=32 time<1ms TTL=128" (IPv6 replies have no TTL)
const WIN_REPLY = /^Reply from (.+?): (?:bytes=\d+ )?time([<=])(\d+)ms(?: TTL=(\d+))?/;
// Windows: "Request timed out.", "Reply from 10.0.0.1: Destination host unreachable."
const WIN_ERROR = /^(?:Reply from (.+?): )?(Request timed out|Destination (?:host|net) unreachable|General failure|Transmit failed.*?)\.?$/i;
// Windows: "    Packets: Sent = 4, Received = 4, Lost = 0 (0% loss),"
const WIN_COUNTS = /^Packets: Sent = (\d+), Received = (\d+), Lost = \d+ \((\d+)% loss\)/;
// Windows: "    Minimum = 0ms, Maximum = 1ms, Average = 0ms"
const WIN_RTT = /^Minimum = (\d+)ms, Maximum = (\d+)ms, Average = (\d+)ms/;

export class PingParser {
  private readonly rows: PingReply[] = [];
  private counts: { transmitted: number; received: number; loss: number } | null = null;
  private rtt: { min: number; avg: number; max: number } | null = null;
  private windowsSeq = 0;

  /** Parses one output line; returns the row it describes, or null (headers, blank lines, statistics). */
  line(raw: string): PingReply | null {
    const text = raw.trim();
    const row = this.parse(text);
    if (row) this.rows.push(row);
    return row;
  }

  get replies(): readonly PingReply[] {
    return this.rows;
  }

  summary(): PingSummary {
    const times = this.rows.map((row) => row.time_ms).filter((time): time is number => time !== null);
    const transmitted = this.counts?.transmitted ?? this.rows.length;
    const received = this.counts?.received ?? times.length;
    const loss = this.counts?.loss ?? (transmitted === 0 ? 0 : round(((transmitted - received) / transmitted) * 100));
    const rtt = this.rtt ?? (times.length > 0 ? { min: Math.min(...times), avg: round(times.reduce((a, b) => a + b, 0) / times.length), max: Math.max(...times) } : null);
    return { transmitted, received, loss_percent: loss, min_ms: rtt?.min ?? null, avg_ms: rtt?.avg ?? null, max_ms: rtt?.max ?? null };
  }

  private parse(text: string): PingReply | null {
    let m = UNIX_REPLY.exec(text);
    if (m) return { seq: Number(m[2]), from: address(m[1] ?? ''), ttl: Number(m[3]), time_ms: m[4] === undefined ? null : Number(m[4]), error: null };
    m = UNIX_ERROR.exec(text);
    if (m) return { seq: Number(m[3]), from: m[2] ?? m[1] ?? null, ttl: null, time_ms: null, error: m[4] ?? null };
    m = UNIX_COUNTS.exec(text);
    if (m) {
      this.counts = { transmitted: Number(m[1]), received: Number(m[2]), loss: Number(m[3]) };
      return null;
    }
    m = UNIX_RTT.exec(text);
    if (m) {
      this.rtt = { min: Number(m[1]), avg: Number(m[2]), max: Number(m[3]) };
      return null;
    }
    m = WIN_REPLY.exec(text);
    if (m) {
      // "time<1ms" is below the timer's resolution; report it as 0.
      const time = m[2] === '<' ? 0 : Number(m[3]);
      return { seq: ++this.windowsSeq, from: address(m[1] ?? ''), ttl: m[4] === undefined ? null : Number(m[4]), time_ms: time, error: null };
    }
    m = WIN_ERROR.exec(text);
    if (m) return { seq: ++this.windowsSeq, from: m[1] ?? null, ttl: null, time_ms: null, error: m[2] ?? 'no reply' };
    m = WIN_COUNTS.exec(text);
    if (m) {
      this.counts = { transmitted: Number(m[1]), received: Number(m[2]), loss: Number(m[3]) };
      return null;
    }
    m = WIN_RTT.exec(text);
    if (m) this.rtt = { min: Number(m[1]), avg: Number(m[3]), max: Number(m[2]) };
    return null;
  }
}

/** "host (192.0.2.1)" → "192.0.2.1"; a bare address stays as it is. */
function address(text: string): string {
  const inner = /\(([^)]+)\)$/.exec(text);
  return inner?.[1] ?? text;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
