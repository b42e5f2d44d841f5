import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/*
 * A tiny initramfs writer for the client VMs of the NFS tests: cpio "newc"
 * (the format the kernel unpacks, Documentation/driver-api/early-userspace),
 * gzipped. Several gzipped archives concatenated are one initramfs to the
 * kernel, so a cached base (busybox + modules) and a per-boot archive (the
 * script) are simply appended.
 */

export type CpioEntry =
  | { kind: 'dir'; path: string; mode?: number }
  | { kind: 'file'; path: string; data: Buffer; mode?: number }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'chardev'; path: string; major: number; minor: number; mode?: number };

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;

function hex8(value: number): string {
  return value.toString(16).padStart(8, '0');
}

function pad4(length: number): Buffer {
  return Buffer.alloc((4 - (length % 4)) % 4);
}

function record(name: string, mode: number, data: Buffer, ino: number, rdev: { major: number; minor: number } = { major: 0, minor: 0 }): Buffer[] {
  const nameBytes = Buffer.from(`${name}\0`, 'utf8');
  const fields = [ino, mode, 0, 0, 1, 0, data.length, 0, 0, rdev.major, rdev.minor, nameBytes.length, 0];
  const header = Buffer.from(`070701${fields.map(hex8).join('')}`, 'ascii');
  return [header, nameBytes, pad4(header.length + nameBytes.length), data, pad4(data.length)];
}

/** One gzipped newc archive of `entries` (paths relative, no leading '/'), ending with the TRAILER!!! record. */
export function cpioNewcGzip(entries: readonly CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  let ino = 1;
  for (const entry of entries) {
    const name = entry.path.replace(/^\/+/, '');
    ino += 1;
    if (entry.kind === 'dir') parts.push(...record(name, S_IFDIR | (entry.mode ?? 0o755), Buffer.alloc(0), ino));
    else if (entry.kind === 'file') parts.push(...record(name, S_IFREG | (entry.mode ?? 0o644), entry.data, ino));
    else if (entry.kind === 'symlink') parts.push(...record(name, S_IFLNK | 0o777, Buffer.from(entry.target, 'utf8'), ino));
    else parts.push(...record(name, S_IFCHR | (entry.mode ?? 0o600), Buffer.alloc(0), ino, { major: entry.major, minor: entry.minor }));
  }
  parts.push(...record('TRAILER!!!', 0, Buffer.alloc(0), 0));
  return gzipSync(Buffer.concat(parts), { level: 6 });
}

/**
 * The modules `wanted` (names as in modules.dep, e.g. "nfsv3", "e1000") and
 * their dependencies, in an order insmod can load them (each module after
 * everything it depends on), as paths relative to the modules folder.
 */
export async function moduleLoadOrder(modulesDir: string, wanted: readonly string[]): Promise<string[]> {
  const dep = await readFile(path.join(modulesDir, 'modules.dep'), 'utf8');
  const deps = new Map<string, string[]>();
  const byName = new Map<string, string>();
  for (const line of dep.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const file = line.slice(0, colon);
    deps.set(file, line.slice(colon + 1).trim().split(/\s+/).filter(Boolean));
    byName.set(moduleName(file), file);
  }
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (file: string): void => {
    if (order.includes(file)) return;
    if (visiting.has(file)) throw new Error(`modules.dep has a cycle through ${file}`);
    visiting.add(file);
    for (const needed of deps.get(file) ?? []) visit(needed);
    visiting.delete(file);
    order.push(file);
  };
  for (const name of wanted) {
    const file = byName.get(name.replace(/-/g, '_'));
    if (!file) throw new Error(`module ${name} is not in ${modulesDir}/modules.dep (built in, or another kernel?)`);
    visit(file);
  }
  return order;
}

/** "kernel/fs/nfs/nfsv3.ko" → "nfsv3" (dashes as underscores, as the kernel names them). */
export function moduleName(file: string): string {
  return path.basename(file).replace(/\.ko(\.(xz|zst|gz))?$/, '').replace(/-/g, '_');
}
