import { describe, expect, it } from 'vitest';
import { PingParser } from '../../../src-main/diagnostics/ping-parser.js';
import { TraceParser } from '../../../src-main/diagnostics/trace-parser.js';

function feed<P extends { line(text: string): unknown }>(parser: P, text: string): unknown[] {
  return text.split('\n').map((line) => parser.line(line)).filter((row) => row !== null);
}

// Captured on Debian (iputils 20221126): ping -n -c 3 -W 2 -s 56 -- 127.0.0.1
const IPUTILS_PING = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.026 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.034 ms
64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.035 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 406ms
rtt min/avg/max/mdev = 0.026/0.031/0.035/0.004 ms`;

// iputils' report of an unreachable neighbour (format as printed by iputils 20221126 in a namespace without the address).
const IPUTILS_UNREACHABLE = `PING 10.9.0.9 (10.9.0.9) 56(84) bytes of data.
From 10.9.0.1 icmp_seq=1 Destination Host Unreachable
From 10.9.0.1 icmp_seq=2 Destination Host Unreachable

--- 10.9.0.9 ping statistics ---
2 packets transmitted, 0 received, +2 errors, 100% packet loss, time 1010ms
`;

// Windows ping.exe — NOT captured here: written from the documented format of Windows 10's ping.
const WINDOWS_PING = `
Pinging 127.0.0.1 with 32 bytes of data:
Reply from 127.0.0.1: bytes=32 time<1ms TTL=128
Reply from 127.0.0.1: bytes=32 time=3ms TTL=128
Request timed out.

Ping statistics for 127.0.0.1:
    Packets: Sent = 3, Received = 2, Lost = 1 (33% loss),
Approximate round trip times in milli-seconds:
    Minimum = 0ms, Maximum = 3ms, Average = 1ms`;

describe('PingParser', () => {
  it('reads iputils replies and statistics', () => {
    const parser = new PingParser();
    expect(feed(parser, IPUTILS_PING)).toEqual([
      { seq: 1, from: '127.0.0.1', ttl: 64, time_ms: 0.026, error: null },
      { seq: 2, from: '127.0.0.1', ttl: 64, time_ms: 0.034, error: null },
      { seq: 3, from: '127.0.0.1', ttl: 64, time_ms: 0.035, error: null },
    ]);
    expect(parser.summary()).toEqual({ transmitted: 3, received: 3, loss_percent: 0, min_ms: 0.026, avg_ms: 0.031, max_ms: 0.035 });
  });

  it('reads iputils error reports as rows without a time', () => {
    const parser = new PingParser();
    expect(feed(parser, IPUTILS_UNREACHABLE)).toEqual([
      { seq: 1, from: '10.9.0.1', ttl: null, time_ms: null, error: 'Destination Host Unreachable' },
      { seq: 2, from: '10.9.0.1', ttl: null, time_ms: null, error: 'Destination Host Unreachable' },
    ]);
    expect(parser.summary()).toEqual({ transmitted: 2, received: 0, loss_percent: 100, min_ms: null, avg_ms: null, max_ms: null });
  });

  it('reads Windows ping output (sample written from the documented format)', () => {
    const parser = new PingParser();
    expect(feed(parser, WINDOWS_PING)).toEqual([
      { seq: 1, from: '127.0.0.1', ttl: 128, time_ms: 0, error: null },
      { seq: 2, from: '127.0.0.1', ttl: 128, time_ms: 3, error: null },
      { seq: 3, from: null, ttl: null, time_ms: null, error: 'Request timed out' },
    ]);
    expect(parser.summary()).toEqual({ transmitted: 3, received: 2, loss_percent: 33, min_ms: 0, avg_ms: 1, max_ms: 3 });
  });

  it('counts the rows when the statistics never came (the run was cut short)', () => {
    const parser = new PingParser();
    feed(parser, IPUTILS_PING.split('\n').slice(0, 3).join('\n'));
    expect(parser.summary()).toEqual({ transmitted: 2, received: 2, loss_percent: 0, min_ms: 0.026, avg_ms: 0.03, max_ms: 0.034 });
  });
});

// Captured on Debian (traceroute 2.1.2): traceroute -n -q 3 -w 2 -m 5 -- 127.0.0.1
const TRACEROUTE_LOOPBACK = `traceroute to 127.0.0.1 (127.0.0.1), 5 hops max, 60 byte packets
 1  127.0.0.1  0.020 ms  0.005 ms  0.003 ms`;

// traceroute 2.1.2's format for timeouts, several answering routers and annotations.
const TRACEROUTE_PATH = `traceroute to 10.9.1.2 (10.9.1.2), 30 hops max, 60 byte packets
 1  10.9.0.1  0.051 ms  0.012 ms  0.010 ms
 2  * * *
 3  10.9.1.2  0.090 ms * 10.9.1.3  0.070 ms !H`;

// Captured on Debian (iputils 20221126): tracepath -n -m 5 -- 127.0.0.1
const TRACEPATH_LOOPBACK = ` 1:  127.0.0.1                                             0.031ms reached
     Resume: pmtu 65535 hops 1 back 1 `;

// tracepath's format through a router, with the local-MTU line and a probe without reply.
const TRACEPATH_PATH = ` 1?: [LOCALHOST]                      pmtu 1500
 1:  10.9.0.1                                              0.061ms
 1:  10.9.0.1                                              0.022ms
 2:  no reply
 3:  10.9.1.2                                              0.050ms reached
     Resume: pmtu 1500 hops 3 back 2 `;

// Windows tracert -d — NOT captured here: written from the documented format of Windows 10's tracert.
const TRACERT = `
Tracing route to 10.9.1.2 over a maximum of 30 hops

  1    <1 ms    <1 ms    <1 ms  10.9.0.1
  2     *        *        *     Request timed out.
  3     1 ms     2 ms    12 ms  10.9.1.2

Trace complete.`;

describe('TraceParser', () => {
  it('reads traceroute on loopback', () => {
    const parser = new TraceParser();
    expect(feed(parser, TRACEROUTE_LOOPBACK)).toEqual([{ hop: 1, addresses: ['127.0.0.1'], rtts_ms: [0.02, 0.005, 0.003], notes: [] }]);
    expect(parser.reached()).toBe(true);
  });

  it('reads timeouts, several addresses on a hop and annotations', () => {
    const parser = new TraceParser();
    expect(parser.hops()).toEqual([]);
    feed(parser, TRACEROUTE_PATH);
    expect(parser.hops()).toEqual([
      { hop: 1, addresses: ['10.9.0.1'], rtts_ms: [0.051, 0.012, 0.01], notes: [] },
      { hop: 2, addresses: [], rtts_ms: [null, null, null], notes: [] },
      { hop: 3, addresses: ['10.9.1.2', '10.9.1.3'], rtts_ms: [0.09, null, 0.07], notes: ['!H'] },
    ]);
    expect(parser.reached()).toBe(true);
  });

  it('reads tracepath and merges its repeated hop lines', () => {
    const loopback = new TraceParser();
    feed(loopback, TRACEPATH_LOOPBACK);
    expect(loopback.hops()).toEqual([{ hop: 1, addresses: ['127.0.0.1'], rtts_ms: [0.031], notes: ['reached'] }]);
    expect(loopback.reached()).toBe(true);
    const routed = new TraceParser();
    expect(feed(routed, TRACEPATH_PATH)).toHaveLength(4);
    expect(routed.hops()).toEqual([
      { hop: 1, addresses: ['10.9.0.1'], rtts_ms: [0.061, 0.022], notes: [] },
      { hop: 2, addresses: [], rtts_ms: [null], notes: [] },
      { hop: 3, addresses: ['10.9.1.2'], rtts_ms: [0.05], notes: ['reached'] },
    ]);
  });

  it('reads Windows tracert (sample written from the documented format)', () => {
    const parser = new TraceParser();
    feed(parser, TRACERT);
    expect(parser.hops()).toEqual([
      { hop: 1, addresses: ['10.9.0.1'], rtts_ms: [0, 0, 0], notes: [] },
      { hop: 2, addresses: [], rtts_ms: [null, null, null], notes: ['Request timed out'] },
      { hop: 3, addresses: ['10.9.1.2'], rtts_ms: [1, 2, 12], notes: [] },
    ]);
    expect(parser.reached()).toBe(true);
  });

  it('has not reached the target when the last hop is someone else', () => {
    const parser = new TraceParser();
    feed(parser, TRACEROUTE_PATH.split('\n').slice(0, 3).join('\n'));
    expect(parser.reached()).toBe(false);
  });
});

// Captured on Debian (iputils 20221126, traceroute 2.1.2) in three test namespaces: client 10.77.0.2 → router 10.77.0.1 →
// 10.77.1.0/24. `ping -n -c 2 -W 1 -t 1 -- 10.77.1.2` (the router drops the packet at TTL 1):
const IPUTILS_TTL_EXCEEDED = `PING 10.77.1.2 (10.77.1.2) 56(84) bytes of data.
From 10.77.0.1 icmp_seq=1 Time to live exceeded
From 10.77.0.1 icmp_seq=2 Time to live exceeded

--- 10.77.1.2 ping statistics ---
2 packets transmitted, 0 received, +2 errors, 100% packet loss, time 1015ms
`;
// Same network: `traceroute -n -q 3 -w 5 -m 3 -- 10.77.1.99` (no such host: the router answers !H after ARP gives up).
const TRACEROUTE_HOST_UNREACHABLE = `traceroute to 10.77.1.99 (10.77.1.99), 3 hops max, 60 byte packets
 1  10.77.0.1  0.018 ms  0.007 ms  0.006 ms
 2  10.77.0.1  3064.145 ms !H  3064.130 ms !H  3064.122 ms !H`;
// Same network: `tracepath -n -m 3 -- 10.77.1.99`.
const TRACEPATH_HOST_UNREACHABLE = ` 1?: [LOCALHOST]                      pmtu 1500
 1:  10.77.0.1                                             0.040ms 
 1:  10.77.0.1                                             0.010ms 
 2:  no reply
 2:  10.77.0.1                                           3068.779ms !H
     Resume: pmtu 1500 `;

describe('error reports on the way (TTL exceeded, !H, !N)', () => {
  it('reads ping\'s "From … Time to live exceeded" lines as error rows from the router', () => {
    const parser = new PingParser();
    expect(feed(parser, IPUTILS_TTL_EXCEEDED)).toEqual([
      { seq: 1, from: '10.77.0.1', ttl: null, time_ms: null, error: 'Time to live exceeded' },
      { seq: 2, from: '10.77.0.1', ttl: null, time_ms: null, error: 'Time to live exceeded' },
    ]);
    expect(parser.summary()).toEqual({ transmitted: 2, received: 0, loss_percent: 100, min_ms: null, avg_ms: null, max_ms: null });
  });

  it('reads the colon and name spellings of an error report (iputils, format as printed)', () => {
    const parser = new PingParser();
    expect(parser.line('From 10.77.0.1: icmp_seq=1 Redirect Host(New nexthop: 10.77.0.2)')).toEqual({
      seq: 1, from: '10.77.0.1', ttl: null, time_ms: null, error: 'Redirect Host(New nexthop: 10.77.0.2)',
    });
    expect(parser.line('From gw.lan (10.77.0.1) icmp_seq=3 Time to live exceeded')).toMatchObject({ seq: 3, from: '10.77.0.1', error: 'Time to live exceeded' });
  });

  it('reads traceroute\'s !H once per hop, with every probe\'s time', () => {
    const parser = new TraceParser();
    expect(feed(parser, TRACEROUTE_HOST_UNREACHABLE)).toEqual([
      { hop: 1, addresses: ['10.77.0.1'], rtts_ms: [0.018, 0.007, 0.006], notes: [] },
      { hop: 2, addresses: ['10.77.0.1'], rtts_ms: [3064.145, 3064.13, 3064.122], notes: ['!H'] },
    ]);
    expect(parser.reached()).toBe(false);
  });

  it('reads !N, !X and numeric annotations, and a hop mixing answers and timeouts (format as printed by traceroute 2.1)', () => {
    const parser = new TraceParser();
    expect(parser.line(' 3  10.77.0.1  1.0 ms !N * 10.77.0.9  2.0 ms !N')).toEqual({ hop: 3, addresses: ['10.77.0.1', '10.77.0.9'], rtts_ms: [1, null, 2], notes: ['!N'] });
    expect(parser.line(' 4  10.77.0.1  0.3 ms !X  0.3 ms !<10>  0.2 ms !X')).toEqual({ hop: 4, addresses: ['10.77.0.1'], rtts_ms: [0.3, 0.3, 0.2], notes: ['!X', '!<10>'] });
  });

  it('reads tracepath\'s !H and merges the hop\'s lines', () => {
    const parser = new TraceParser();
    feed(parser, TRACEPATH_HOST_UNREACHABLE);
    expect(parser.hops()).toEqual([
      { hop: 1, addresses: ['10.77.0.1'], rtts_ms: [0.04, 0.01], notes: [] },
      { hop: 2, addresses: ['10.77.0.1'], rtts_ms: [null, 3068.779], notes: ['!H'] },
    ]);
    expect(parser.reached()).toBe(false);
  });

  it('reads tracert\'s "reports: Destination host unreachable." hop (sample written from the documented format)', () => {
    const parser = new TraceParser();
    feed(parser, 'Tracing route to 10.77.1.99 over a maximum of 30 hops\n\n  1    <1 ms    <1 ms    <1 ms  10.77.0.1\n  2  10.77.0.1  reports: Destination host unreachable.\n\nTrace complete.');
    expect(parser.hops()).toEqual([
      { hop: 1, addresses: ['10.77.0.1'], rtts_ms: [0, 0, 0], notes: [] },
      { hop: 2, addresses: ['10.77.0.1'], rtts_ms: [], notes: ['Destination host unreachable'] },
    ]);
    expect(parser.reached()).toBe(false);
  });
});
