import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dig,
  encodeQuery,
  flagOf,
  haveDig,
  query,
  rcodeOf,
  startDnsCore,
  tcpExchange,
  udpExchange,
  udpMaybe,
  type DnsCore,
} from './dns-harness.js';

const D = 'bootwright.local';
let t: DnsCore;
let digAvailable = false;

beforeAll(async () => {
  digAvailable = await haveDig();
  if (!digAvailable && process.env.CI) throw new Error('dig (bind9-dnsutils) is required in CI');
  if (!digAvailable) console.warn('dig is not installed: the dig checks in this file are skipped (install bind9-dnsutils)');
  t = await startDnsCore({ serverName: 'pxe' });
  const records = t.core.area('dns').records;
  await records.create({ name: 'www', type: 'A', value: '10.0.0.1' });
  await records.create({ name: 'www', type: 'AAAA', value: '2001:db8::1' });
  await records.create({ name: 'alias', type: 'CNAME', value: 'www' });
  await records.create({ name: 'alias2', type: 'CNAME', value: `alias.${D}.` });
  await records.create({ name: '@', type: 'MX', value: 'mail', priority: 10 });
  await records.create({ name: 'mail', type: 'A', value: '10.0.0.25' });
  await records.create({ name: 'txt', type: 'TXT', value: 'hello world' });
  for (let i = 0; i < 4; i++) await records.create({ name: 'big', type: 'TXT', value: `${i}`.repeat(400) });
  await records.create({ name: 'off', type: 'A', value: '10.0.0.7', enabled: false });
  await t.core.area('dns').sync();
});

afterAll(async () => {
  await t?.close();
});

describe('DNS server over UDP and TCP', () => {
  it('answers A, AAAA, MX (with the exchange address) and TXT authoritatively', async () => {
    const a = await query(`www.${D}`, 'A', { port: t.port });
    expect(rcodeOf(a)).toBe('NOERROR');
    expect(flagOf(a, 'flag_aa')).toBe(true);
    expect(flagOf(a, 'flag_rd')).toBe(true);
    expect(a.answers).toMatchObject([{ type: 'A', name: `www.${D}`, ttl: 300, data: '10.0.0.1' }]);
    expect((await query(`www.${D}`, 'AAAA', { port: t.port, tcp: true })).answers).toMatchObject([{ type: 'AAAA', data: '2001:db8::1' }]);
    const mx = await query(D, 'MX', { port: t.port });
    expect(mx.answers).toMatchObject([{ type: 'MX', data: { preference: 10, exchange: `mail.${D}` } }]);
    expect(mx.additionals).toMatchObject([{ type: 'A', name: `mail.${D}`, data: '10.0.0.25' }]);
    const txt = await query(`txt.${D}`, 'TXT', { port: t.port });
    expect((txt.answers![0] as { data: Buffer[] }).data.map(String)).toEqual(['hello world']);
  });

  it('follows CNAME chains and matches names case-insensitively, echoing the question as asked', async () => {
    const chain = await query(`ALIAS2.BootWright.Local`, 'A', { port: t.port });
    expect(chain.questions![0]!.name).toBe('ALIAS2.BootWright.Local');
    expect(chain.answers!.map((answer) => answer.type)).toEqual(['CNAME', 'CNAME', 'A']);
    expect(chain.answers![2]).toMatchObject({ name: `www.${D}`, data: '10.0.0.1' });
  });

  it('NXDOMAIN for unknown names and NODATA for a missing type, both with the SOA; disabled records do not answer', async () => {
    const nx = await query(`nope.${D}`, 'A', { port: t.port });
    expect(rcodeOf(nx)).toBe('NXDOMAIN');
    expect(nx.authorities).toMatchObject([{ type: 'SOA', name: D, data: { mname: `pxe.${D}`, rname: `hostmaster.${D}` } }]);
    const nodata = await query(`txt.${D}`, 'A', { port: t.port, tcp: true });
    expect(rcodeOf(nodata)).toBe('NOERROR');
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities).toMatchObject([{ type: 'SOA' }]);
    expect(rcodeOf(await query(`off.${D}`, 'A', { port: t.port }))).toBe('NXDOMAIN');
  });

  it('REFUSED for names outside local data when no upstream is set, for AXFR, and for class CH', async () => {
    const outside = await query('www.example.com', 'A', { port: t.port });
    expect(rcodeOf(outside)).toBe('REFUSED');
    expect(flagOf(outside, 'flag_ra')).toBe(false);
    expect(rcodeOf(await query(D, 'AXFR' as 'A', { port: t.port, tcp: true }))).toBe('REFUSED');
    expect(rcodeOf(await query('version.bind', 'TXT', { port: t.port, klass: 'CH' }))).toBe('REFUSED');
  });

  it('answers ANY minimally (RFC 8482)', async () => {
    const any = await query(`www.${D}`, 'ANY' as 'A', { port: t.port });
    expect(any.answers!.map((answer) => answer.type)).toEqual(['A']);
  });

  it('advertises EDNS 1232, truncates over UDP what does not fit, and answers in full over TCP', async () => {
    const plain = await query(`big.${D}`, 'TXT', { port: t.port });
    expect(flagOf(plain, 'flag_tc')).toBe(true);
    expect(plain.answers).toEqual([]);
    const edns = await query(`big.${D}`, 'TXT', { port: t.port, edns: 4096 });
    expect(flagOf(edns, 'flag_tc')).toBe(true);
    expect(edns.additionals).toMatchObject([{ type: 'OPT', udpPayloadSize: 1232 }]);
    const tcp = await query(`big.${D}`, 'TXT', { port: t.port, tcp: true, edns: 4096 });
    expect(flagOf(tcp, 'flag_tc')).toBe(false);
    expect(tcp.answers).toHaveLength(4);
    const small = await query(`www.${D}`, 'A', { port: t.port, edns: 1232 });
    expect(small.additionals).toMatchObject([{ type: 'OPT', udpPayloadSize: 1232 }]);
  });

  it('answers FORMERR to a malformed query, NOTIMP to other opcodes, nothing to responses', async () => {
    const malformed = encodeQuery(`www.${D}`, 'A', { id: 4242 }).subarray(0, 20);
    const formerr = packet.decode(await udpExchange(malformed, { port: t.port }));
    expect(formerr).toMatchObject({ id: 4242, rcode: 'FORMERR' });
    const notify = encodeQuery(`www.${D}`, 'A', { id: 4243 });
    notify[2] = 4 << 3;
    expect(packet.decode(await tcpExchange(notify, { port: t.port }))).toMatchObject({ id: 4243, rcode: 'NOTIMP', opcode: 'NOTIFY' });
    const response = encodeQuery(`www.${D}`, 'A');
    response[2] = response[2]! | 0x80;
    expect(await udpMaybe(response, { port: t.port })).toBeNull();
  });

  it('takes record changes from the next query, without a restart', async () => {
    const { records } = t.core.area('dns');
    const created = await records.create({ name: 'fresh', type: 'A', value: '10.0.0.50' });
    await t.core.area('dns').sync();
    expect((await query(`fresh.${D}`, 'A', { port: t.port })).answers).toMatchObject([{ data: '10.0.0.50' }]);
    await records.update(created.id, { value: '10.0.0.51' });
    await t.core.area('dns').sync();
    expect((await query(`fresh.${D}`, 'A', { port: t.port })).answers).toMatchObject([{ data: '10.0.0.51' }]);
    await records.remove(created.id);
    await t.core.area('dns').sync();
    expect(rcodeOf(await query(`fresh.${D}`, 'A', { port: t.port }))).toBe('NXDOMAIN');
  });

  it('works with dig: each type, UDP and TCP, and dig retries a truncated answer over TCP', async () => {
    if (!digAvailable) return;
    const short = (args: string[]) => dig(['+short', ...args], { port: t.port }).then((out) => out.trim().split('\n'));
    expect(await short([`www.${D}`, 'A'])).toEqual(['10.0.0.1']);
    expect(await short([`www.${D}`, 'AAAA', '+tcp'])).toEqual(['2001:db8::1']);
    expect(await short([`alias.${D}`, 'A'])).toEqual([`www.${D}.`, '10.0.0.1']);
    expect(await short([D, 'MX'])).toEqual([`10 mail.${D}.`]);
    expect(await short([`txt.${D}`, 'TXT'])).toEqual(['"hello world"']);
    const big = await dig([`big.${D}`, 'TXT', '+noedns'], { port: t.port });
    expect(big).toContain('Truncated, retrying in TCP mode');
    expect(big).toContain('ANSWER: 4');
    const nx = await dig([`nope.${D}`, 'A'], { port: t.port });
    expect(nx).toContain('status: NXDOMAIN');
    expect(nx).toMatch(/flags: qr aa rd/);
    expect(nx).toContain('udp: 1232');
  });
});
