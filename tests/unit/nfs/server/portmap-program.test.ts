import { afterEach, describe, expect, it } from 'vitest';
import { ACCEPT_STAT, IPPROTO, PMAPPROC, PROGRAM } from '../../../../src-main/nfs/server/rpc-constants.js';
import { createPortmapProgram, mappingCodec, readMappingList, writeMappingList, type PortMapping } from '../../../../src-main/nfs/server/portmap-program.js';
import { dumpMappings, getPort, portmapCall, registerMappings, rpcbindAnswers, unregisterMappings } from '../../../../src-main/nfs/server/rpcbind-client.js';
import { RpcServer } from '../../../../src-main/nfs/server/rpc-server.js';
import { XdrError, XdrReader, XdrWriter } from '../../../../src-main/nfs/server/xdr.js';
import { expectRoundTrip } from '../../../helpers/codec-roundtrip.js';

const MAPPINGS: PortMapping[] = [
  { program: PROGRAM.PORTMAP, version: 2, protocol: IPPROTO.TCP, port: 111 },
  { program: PROGRAM.MOUNT, version: 3, protocol: IPPROTO.TCP, port: 20048 },
  { program: PROGRAM.MOUNT, version: 3, protocol: IPPROTO.UDP, port: 20048 },
  { program: PROGRAM.NFS, version: 3, protocol: IPPROTO.TCP, port: 2049 },
];

const servers: RpcServer[] = [];

/** Our portmapper on a loopback port (UDP, which is what rpcbind-client speaks). */
async function portmapper(mappings: readonly PortMapping[] = MAPPINGS): Promise<number> {
  const server = new RpcServer({ programs: [createPortmapProgram(mappings)], host: '127.0.0.1', port: 0, udp: true });
  await server.listen();
  servers.push(server);
  return server.addresses().tcp.port;
}

const mappingArgs = (mapping: PortMapping): Buffer => mappingCodec.encode(mapping);

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('portmapper v2 program (RFC 1833)', () => {
  it('codes mappings and pmaplists', () => {
    expectRoundTrip({ codec: mappingCodec, decodeTakesEnd: true }, { program: 100003, version: 3, protocol: 6, port: 2049 });
    const list = writeMappingList(new XdrWriter(), MAPPINGS).toBuffer();
    expect(list.length).toBe(4 + MAPPINGS.length * 20);
    expect(readMappingList(new XdrReader(list))).toEqual(MAPPINGS);
    expect(() => readMappingList(new XdrReader(list.subarray(0, 30)))).toThrow(XdrError);
  });

  it('answers NULL, GETPORT (exact program, version and protocol; 0 otherwise) and DUMP', async () => {
    const port = await portmapper();
    const options = { port, timeoutMs: 2000 };
    expect(await rpcbindAnswers(options)).toBe(true);
    expect(await getPort({ program: PROGRAM.NFS, version: 3, protocol: IPPROTO.TCP }, options)).toBe(2049);
    expect(await getPort({ program: PROGRAM.MOUNT, version: 3, protocol: IPPROTO.UDP }, options)).toBe(20048);
    expect(await getPort({ program: PROGRAM.NFS, version: 3, protocol: IPPROTO.UDP }, options)).toBe(0);
    expect(await getPort({ program: PROGRAM.NFS, version: 4, protocol: IPPROTO.TCP }, options)).toBe(0);
    expect(await dumpMappings(options)).toEqual(MAPPINGS);
  });

  it('reads the mapping list on every call when given a function', async () => {
    let mappings: PortMapping[] = [];
    const port = await portmapper([]);
    const dynamic = new RpcServer({ programs: [createPortmapProgram(() => mappings)], host: '127.0.0.1', port: 0, udp: true });
    await dynamic.listen();
    servers.push(dynamic);
    const options = { port: dynamic.addresses().tcp.port, timeoutMs: 2000 };
    expect(await dumpMappings(options)).toEqual([]);
    mappings = MAPPINGS;
    expect(await dumpMappings(options)).toEqual(MAPPINGS);
    expect(await dumpMappings({ port, timeoutMs: 2000 })).toEqual([]);
  });

  it('refuses SET and UNSET from anyone, and CALLIT with PROC_UNAVAIL', async () => {
    const port = await portmapper();
    const options = { port, timeoutMs: 2000 };
    const evil = { program: PROGRAM.NFS, version: 3, protocol: IPPROTO.TCP, port: 4444 };
    expect((await portmapCall(PMAPPROC.SET, mappingArgs(evil), options)).bool()).toBe(false);
    expect((await portmapCall(PMAPPROC.UNSET, mappingArgs(evil), options)).bool()).toBe(false);
    await expect(registerMappings([evil], options)).rejects.toMatchObject({ code: 'UPSTREAM_FAILED', message: expect.stringContaining('refused to register program 100003') });
    await expect(unregisterMappings([evil], options)).resolves.toBeUndefined();
    expect(await getPort(evil, options)).toBe(2049);
    const callit = new XdrWriter().uint32(PROGRAM.NFS).uint32(3).uint32(0).opaque(Buffer.alloc(0)).toBuffer();
    await expect(portmapCall(PMAPPROC.CALLIT, callit, options)).rejects.toMatchObject({ message: expect.stringContaining(`accepted ${ACCEPT_STAT.PROC_UNAVAIL}`) });
  });

  it('gives up on a silent portmapper after its retries', async () => {
    const port = await portmapper();
    await servers.splice(0)[0]?.close();
    expect(await rpcbindAnswers({ port, timeoutMs: 100, retries: 1 })).toBe(false);
    await expect(getPort({ program: 1, version: 1, protocol: 6 }, { port, timeoutMs: 100, retries: 1 })).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
  });
});
