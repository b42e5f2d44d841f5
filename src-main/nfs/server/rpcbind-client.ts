import dgram from 'node:dgram';
import { randomInt } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import { ACCEPT_STAT, PMAP_PORT, PMAP_VERSION, PMAPPROC, PROGRAM, RPC_VERSION } from './rpc-constants.js';
import { AUTH_NONE_VERF, decodeReply, encodeCall } from './rpc-message.js';
import { readMappingList, writeMapping, type PortMapping } from './portmap-program.js';
import { XdrReader, XdrWriter } from './xdr.js';

/*
 * A portmapper v2 client for the rpcbind already running on this machine
 * (RFC 1833 §3): when port 111 is taken, our programs are registered there
 * (PMAPPROC_SET) and unregistered on stop (PMAPPROC_UNSET). Over UDP to
 * loopback, which rpcbind trusts for SET/UNSET from local callers.
 */

export interface RpcbindClientOptions {
  /** 127.0.0.1 unless given (tests point at a namespace's loopback the same way). */
  host?: string;
  port?: number;
  /** Wait per attempt (1 s). */
  timeoutMs?: number;
  /** Attempts after the first (2). */
  retries?: number;
}

/** One portmapper call over UDP with retries; resolves to a reader at the results. */
export async function portmapCall(procedure: number, args: Buffer, options: RpcbindClientOptions = {}): Promise<XdrReader> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? PMAP_PORT;
  const timeoutMs = options.timeoutMs ?? 1000;
  const attempts = 1 + (options.retries ?? 2);
  const xid = randomInt(0, 0xffff_ffff);
  const call = encodeCall({ xid, rpcvers: RPC_VERSION, program: PROGRAM.PORTMAP, version: PMAP_VERSION, procedure, cred: AUTH_NONE_VERF, verf: AUTH_NONE_VERF });
  const message = Buffer.concat([call, args]);
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  try {
    return await new Promise<XdrReader>((resolve, reject) => {
      let sent = 0;
      let timer: NodeJS.Timeout | undefined;
      const fail = (error: Error): void => {
        clearTimeout(timer);
        reject(error);
      };
      const send = (): void => {
        if (sent >= attempts) {
          fail(new AppError('UPSTREAM_FAILED', `portmapper at ${host}:${port} did not answer procedure ${procedure} in ${attempts} attempts of ${timeoutMs} ms`));
          return;
        }
        sent += 1;
        socket.send(message, port, host, (error) => {
          if (error) fail(new AppError('UPSTREAM_FAILED', `portmapper at ${host}:${port}: ${error.message}`, { cause: error }));
        });
        timer = setTimeout(send, timeoutMs);
      };
      socket.on('error', (error) => fail(new AppError('UPSTREAM_FAILED', `portmapper at ${host}:${port}: ${error.message}`, { cause: error })));
      socket.on('message', (reply) => {
        try {
          // Anything not a well-formed reply to this xid is ignored (a stray or spoofed datagram).
          const header = decodeReply(reply);
          if (header.xid !== xid) return;
          clearTimeout(timer);
          if (header.kind !== 'accepted' || header.acceptStat !== ACCEPT_STAT.SUCCESS) {
            reject(new AppError('UPSTREAM_FAILED', `portmapper at ${host}:${port} refused procedure ${procedure} (${header.kind}${header.kind === 'accepted' ? ` ${header.acceptStat}` : ''})`));
            return;
          }
          resolve(new XdrReader(reply, decodeReply.bytes));
        } catch {
          return;
        }
      });
      send();
    });
  } finally {
    socket.close();
  }
}

function mappingArgs(mapping: PortMapping): Buffer {
  return writeMapping(new XdrWriter(16), mapping).toBuffer();
}

/** Whether a portmapper answers NULL at host:port (127.0.0.1:111): one short attempt plus one retry. */
export async function rpcbindAnswers(options: RpcbindClientOptions = {}): Promise<boolean> {
  try {
    await portmapCall(PMAPPROC.NULL, Buffer.alloc(0), { timeoutMs: 500, retries: 1, ...options });
    return true;
  } catch {
    return false;
  }
}

/**
 * Registers each mapping (PMAPPROC_SET). v2 SET refuses to overwrite, and a
 * stale entry of a crashed run would keep clients away, so each program and
 * version is unset first (UNSET removes it for every protocol, hence all the
 * unsets before any set). Throws AppError UPSTREAM_FAILED naming the mapping
 * rpcbind refused.
 */
export async function registerMappings(mappings: readonly PortMapping[], options: RpcbindClientOptions = {}): Promise<void> {
  await unregisterMappings(mappings, options);
  for (const mapping of mappings) {
    const ok = (await portmapCall(PMAPPROC.SET, mappingArgs(mapping), options)).bool('set result');
    if (!ok) throw new AppError('UPSTREAM_FAILED', `rpcbind refused to register program ${mapping.program} v${mapping.version} protocol ${mapping.protocol} port ${mapping.port}`);
  }
}

async function unsetOne(mapping: PortMapping, options: RpcbindClientOptions): Promise<boolean> {
  return (await portmapCall(PMAPPROC.UNSET, mappingArgs(mapping), options)).bool('unset result');
}

/** Unregisters each program/version (PMAPPROC_UNSET removes it for every protocol); false results (not registered) are fine. */
export async function unregisterMappings(mappings: readonly PortMapping[], options: RpcbindClientOptions = {}): Promise<void> {
  const done = new Set<string>();
  for (const mapping of mappings) {
    const key = `${mapping.program}/${mapping.version}`;
    if (done.has(key)) continue;
    done.add(key);
    await unsetOne(mapping, options);
  }
}

/** PMAPPROC_GETPORT: the port registered for a program, version and protocol (0 = none). */
export async function getPort(mapping: Omit<PortMapping, 'port'>, options: RpcbindClientOptions = {}): Promise<number> {
  return (await portmapCall(PMAPPROC.GETPORT, mappingArgs({ ...mapping, port: 0 }), options)).uint32('port');
}

/** PMAPPROC_DUMP: every mapping the portmapper holds. */
export async function dumpMappings(options: RpcbindClientOptions = {}): Promise<PortMapping[]> {
  return readMappingList(await portmapCall(PMAPPROC.DUMP, Buffer.alloc(0), options));
}
