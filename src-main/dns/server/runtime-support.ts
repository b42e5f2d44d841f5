import os from 'node:os';

/**
 * SO_REUSEPORT for dgram sockets (`reusePort`) arrived in Node 22.12 and
 * 23.1; the kernel spreads packets over the sockets only on Linux and
 * FreeBSD (elsewhere the option fails at bind, or does not balance).
 */
export function supportsReusePort(version: string = process.versions.node, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' && platform !== 'freebsd') return false;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/** Most workers ever started: more threads than this add contention, not answers. */
export const MAX_DNS_WORKERS = 4;

/** One worker per core (at most 4) where the runtime can share a port between them, else one. */
export function defaultWorkerCount(): number {
  return supportsReusePort() ? Math.max(1, Math.min(MAX_DNS_WORKERS, os.availableParallelism())) : 1;
}
