import dgram from 'node:dgram';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Nic } from '../../../src-main/network/nic.js';
import type { TftpThreading } from '../../../src-main/tftp/server/tftp-service.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/** A fake served interface carrying loopback addresses, so TFTP binds only to loopback. */
export function loopbackNics(addresses: readonly string[] = ['127.0.0.1']): () => Nic[] {
  return () => [
    {
      name: 'bwtest0',
      mac: '02:00:00:00:00:01',
      mtu: 1500,
      up: true,
      link: 'up',
      internal: false,
      addresses: addresses.map((address) => {
        const v6 = address.includes(':');
        return v6
          ? { address, family: 'ipv6' as const, prefix: 128, cidr: `${address}/128`, subnet: `${address}/128` }
          : { address, family: 'ipv4' as const, prefix: 8, cidr: `${address}/8`, subnet: '127.0.0.0/8' };
      }),
    },
  ];
}

/** A UDP port free on loopback right now (the kernel's pick, released again). */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

export interface TftpCore extends TestCore {
  port: number;
  root: string;
}

/**
 * A started core whose TFTP server listens on 127.0.0.1 at a free high port,
 * with `files` written into the boot root first.
 */
export async function startTftpCore(options: { threading?: TftpThreading; files?: Record<string, Buffer | string>; settings?: Record<string, number> } = {}): Promise<TftpCore> {
  const t = await createTestCore({ nicReader: loopbackNics(), autoStartServices: ['tftp'], ...(options.threading ? { tftpThreading: options.threading } : {}) });
  const root = t.core.area('boot-files').files.root;
  await mkdir(root, { recursive: true });
  for (const [name, content] of Object.entries(options.files ?? {})) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  const port = await freeUdpPort();
  await t.core.area('tftp').settings.update({ port, ...options.settings });
  await t.core.start();
  const status = t.core.kernel.services.get('tftp');
  if (status.state !== 'running') {
    await t.close();
    throw new Error(`tftp did not start: ${status.last_error ?? status.state}`);
  }
  return { ...t, port, root };
}

/** Deterministic pseudo-random bytes (so a failure is reproducible). */
export function patternBytes(size: number, seed = 1): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
