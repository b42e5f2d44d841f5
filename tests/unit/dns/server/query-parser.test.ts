import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { RCODE } from '../../../../src-main/dns/server/dns-wire.js';
import { keyName, parseQuery, type ParsedQuery, type QueryProblem } from '../../../../src-main/dns/server/query-parser.js';

function query(name: string, type: 'A' | 'AAAA' | 'TXT' = 'A', extra: Partial<packet.Packet> = {}): Buffer {
  return packet.encode({ type: 'query', id: 0x1234, flags: packet.RECURSION_DESIRED, questions: [{ type, name }], ...extra });
}

function parsed(msg: Buffer): ParsedQuery {
  const result = parseQuery(msg);
  if (!result.ok) throw new Error(`unexpected problem: ${result.reason}`);
  return result;
}

function problem(msg: Buffer): QueryProblem {
  const result = parseQuery(msg);
  if (result.ok) throw new Error('expected a problem');
  return result;
}

const opt = (udpPayloadSize: number, ednsVersion = 0) =>
  ({ name: '.', type: 'OPT', udpPayloadSize, extendedRcode: 0, ednsVersion, flags: 0, flag_do: false, options: [] }) as packet.Answer;

describe('parseQuery', () => {
  it('reads ID, flags, the question and a key that folds only ASCII letters', () => {
    const q = parsed(query('PxE.BootWright.Local', 'AAAA'));
    expect(q).toMatchObject({ id: 0x1234, rd: 1, cd: 0, qtype: 28, qclass: 1, hasUpper: true, edns: false, udpSize: 512 });
    expect(keyName(q.key)).toBe('pxe.bootwright.local');
    expect(q.key).toBe(parsed(query('pxe.bootwright.local', 'AAAA')).key);
    expect(parsed(query('pxe.bootwright.local', 'AAAA')).hasUpper).toBe(false);
  });

  it('keeps QTYPE bytes that look like capital letters out of the folding', () => {
    // QTYPE 0x0041 (65, HTTPS) is the byte "A".
    const msg = query('Host.local');
    msg.writeUInt16BE(0x41, msg.length - 4);
    const q = parsed(msg);
    expect(q.qtype).toBe(0x41);
    expect(q.key.charCodeAt(q.key.length - 1)).toBe(0x41);
  });

  it('reads EDNS: payload size (at least 512) and DO', () => {
    expect(parsed(query('a.local', 'A', { additionals: [opt(4096)] }))).toMatchObject({ edns: true, udpSize: 4096 });
    expect(parsed(query('a.local', 'A', { additionals: [opt(100)] }))).toMatchObject({ edns: true, udpSize: 512 });
  });

  it('drops what is too short or a response; NOTIMP for other opcodes', () => {
    expect(problem(Buffer.alloc(5)).rcode).toBeNull();
    const response = query('a.local');
    response[2] = response[2]! | 0x80;
    expect(problem(response).rcode).toBeNull();
    const notify = query('a.local');
    notify[2] = (4 << 3) | 1;
    expect(problem(notify)).toMatchObject({ rcode: RCODE.NOTIMP, id: 0x1234 });
  });

  it('FORMERR for bad counts, truncation, pointers in the question, long names and bad OPTs', () => {
    const two = query('a.local');
    two.writeUInt16BE(2, 4);
    expect(problem(two).rcode).toBe(RCODE.FORMERR);
    expect(problem(query('a.local').subarray(0, 20)).rcode).toBe(RCODE.FORMERR);
    const pointer = Buffer.concat([query('a.local').subarray(0, 12), Buffer.from([0xc0, 0x0c, 0, 1, 0, 1])]);
    expect(problem(pointer).rcode).toBe(RCODE.FORMERR);
    const long = Buffer.concat([query('a.local').subarray(0, 12), Buffer.from(Array.from({ length: 5 }, () => [63, ...Buffer.alloc(63, 0x61)]).flat()), Buffer.from([0, 0, 1, 0, 1])]);
    expect(problem(long).rcode).toBe(RCODE.FORMERR);
    expect(problem(query('a.local', 'A', { additionals: [opt(1232), opt(1232)] })).rcode).toBe(RCODE.FORMERR);
    const answers = query('a.local', 'A', { answers: [{ type: 'A', name: 'a.local', data: '10.0.0.1' }] });
    expect(problem(answers).rcode).toBe(RCODE.FORMERR);
  });

  it('BADVERS for EDNS versions above 0, with EDNS in the answer', () => {
    expect(problem(query('a.local', 'A', { additionals: [opt(1232, 1)] }))).toMatchObject({ rcode: RCODE.BADVERS, edns: true });
  });
});

describe('keyName', () => {
  it('escapes bytes outside letters, digits, hyphen and underscore', () => {
    const msg = query('x.local');
    msg[13] = 0x2e; // a "." inside the label x
    expect(keyName(parsed(msg).key)).toBe('\\046.local');
    expect(keyName(parsed(query('.')).key)).toBe('');
  });
});
