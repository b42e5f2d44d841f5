import { PMAP_VERSION, PMAPPROC, PROGRAM } from './rpc-constants.js';
import type { RpcOutcome, RpcProgram } from './rpc-program.js';
import { XdrError, XdrReader, XdrWriter } from './xdr.js';

/*
 * The portmapper, version 2 (RFC 1833 §3), as an RpcProgram answering for a
 * fixed list of our own mappings: NULL, GETPORT, DUMP. Nobody else may
 * register through us (SET/UNSET answer false), and CALLIT (an indirect call,
 * an amplification and spoofing tool) is not served (PROC_UNAVAIL).
 */

/** RFC 1833 §3.1 `struct mapping`; `protocol` is IPPROTO.TCP (6) or IPPROTO.UDP (17). */
export interface PortMapping {
  program: number;
  version: number;
  protocol: number;
  port: number;
}

export function mappingEncodingLength(): number {
  return 16;
}

export function encodeMapping(mapping: PortMapping, buf?: Buffer, offset = 0): Buffer {
  const out = buf ?? Buffer.allocUnsafe(16);
  if (offset < 0 || out.length - offset < 16) throw new RangeError(`buffer too small: need 16 bytes at offset ${offset}`);
  out.writeUInt32BE(mapping.program >>> 0, offset);
  out.writeUInt32BE(mapping.version >>> 0, offset + 4);
  out.writeUInt32BE(mapping.protocol >>> 0, offset + 8);
  out.writeUInt32BE(mapping.port >>> 0, offset + 12);
  encodeMapping.bytes = 16;
  return out;
}
encodeMapping.bytes = 0;

/** Throws XdrError on a short buffer. */
export function decodeMapping(buf: Buffer, offset = 0, end = buf.length): PortMapping {
  const reader = new XdrReader(buf, offset, end);
  const mapping = readMapping(reader);
  decodeMapping.bytes = 16;
  return mapping;
}
decodeMapping.bytes = 0;

export const mappingCodec = { encode: encodeMapping, decode: decodeMapping, encodingLength: mappingEncodingLength };

export function readMapping(reader: XdrReader): PortMapping {
  return { program: reader.uint32('prog'), version: reader.uint32('vers'), protocol: reader.uint32('prot'), port: reader.uint32('port') };
}

export function writeMapping(writer: XdrWriter, mapping: PortMapping): XdrWriter {
  return writer.uint32(mapping.program).uint32(mapping.version).uint32(mapping.protocol).uint32(mapping.port);
}

/** RFC 1833 pmaplist: each entry behind `true`, the list ended by `false`. */
export function writeMappingList(writer: XdrWriter, mappings: readonly PortMapping[]): XdrWriter {
  for (const mapping of mappings) writeMapping(writer.bool(true), mapping);
  return writer.bool(false);
}

/** The largest DUMP list read back (a pmaplist has no count: bound the loop). */
const MAX_DUMP_ENTRIES = 4096;

export function readMappingList(reader: XdrReader): PortMapping[] {
  const mappings: PortMapping[] = [];
  while (reader.bool('pmaplist more')) {
    if (mappings.length >= MAX_DUMP_ENTRIES) throw new XdrError(`pmaplist longer than ${MAX_DUMP_ENTRIES} entries`, reader.offset);
    mappings.push(readMapping(reader));
  }
  return mappings;
}

/**
 * The portmapper program. `mappings` is read on every call, so a function
 * lets the service change the list (ports rebound, UDP switched) without a
 * new program.
 */
export function createPortmapProgram(mappings: readonly PortMapping[] | (() => readonly PortMapping[])): RpcProgram {
  const current = typeof mappings === 'function' ? mappings : () => mappings;
  return {
    program: PROGRAM.PORTMAP,
    name: 'portmap',
    versions: [PMAP_VERSION],
    call(_version: number, procedure: number, args: XdrReader): RpcOutcome {
      switch (procedure) {
        case PMAPPROC.NULL:
          return { status: 'success', results: new XdrWriter(4) };
        case PMAPPROC.SET:
        case PMAPPROC.UNSET:
          readMapping(args);
          return { status: 'success', results: new XdrWriter(4).bool(false) };
        case PMAPPROC.GETPORT: {
          const wanted = readMapping(args);
          const hit = current().find((m) => m.program === wanted.program && m.version === wanted.version && m.protocol === wanted.protocol);
          return { status: 'success', results: new XdrWriter(4).uint32(hit?.port ?? 0) };
        }
        case PMAPPROC.DUMP: {
          const list = current();
          return { status: 'success', results: writeMappingList(new XdrWriter(4 + list.length * 20), list) };
        }
        default:
          return { status: 'proc_unavail' };
      }
    },
  };
}
