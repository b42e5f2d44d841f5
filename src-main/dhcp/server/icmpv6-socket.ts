import { createRequire } from 'node:module';

/**
 * The native raw-ICMPv6 socket (native/sendfile/src/icmpv6.c): Node's dgram
 * cannot send ICMPv6, and a Router Advertisement must leave with hop limit
 * 255. Loaded once, lazily; when the addon is missing (no C compiler at
 * install time, not Linux) openIcmpv6() throws with `code` ENOSYS and the
 * DHCP service sends no Router Advertisements (its notice says why).
 */

/** One raw ICMPv6 socket bound to one interface, receiving Router Solicitations and Advertisements. */
export interface Icmpv6Socket {
  /** Sends `bytes` (an ICMPv6 message, checksum left 0: the kernel fills it) to `destination` on the interface. Throws with an errno `code`. */
  send(destination: string, bytes: Buffer): void;
  close(): void;
}

/** type: the ICMPv6 type (133 RS, 134 RA); hopLimit: as received, -1 when unknown. */
export type Icmpv6Listener = (type: number, source: string, hopLimit: number, bytes: Buffer) => void;

/** Opens a socket on an interface; throws an Error with an errno `code` (EPERM without CAP_NET_RAW, ENODEV, ENOSYS). */
export type Icmpv6Opener = (interfaceName: string, onPacket: Icmpv6Listener) => Icmpv6Socket;

interface Icmpv6Binding {
  supported: boolean;
  open(interfaceName: string, onPacket: Icmpv6Listener): Icmpv6Socket;
}

/** Development: the addon built in a worktree whose node_modules belongs to another checkout. */
const ADDON_OVERRIDE = 'BOOTWRIGHT_ICMPV6_ADDON';

type LoadState = { binding: Icmpv6Binding; reason: null } | { binding: null; reason: string };
let loaded: LoadState | null = null;

function isBinding(value: unknown): value is Icmpv6Binding {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.open === 'function' && typeof candidate.supported === 'boolean';
}

function load(): LoadState {
  if (loaded) return loaded;
  if (process.platform !== 'linux') return (loaded = { binding: null, reason: `raw ICMPv6 is used on Linux only (this is ${process.platform})` });
  const name = process.env[ADDON_OVERRIDE] || '@bootwright/sendfile/icmpv6';
  try {
    // createRequire: this is an ES module, and a .node addon loads only through require.
    const required: unknown = createRequire(import.meta.url)(name);
    if (!isBinding(required)) return (loaded = { binding: null, reason: `${name} has an unexpected shape` });
    if (!required.supported) return (loaded = { binding: null, reason: `${name} was built without raw ICMPv6 support` });
    return (loaded = { binding: required, reason: null });
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return (loaded = { binding: null, reason: `${name} could not be loaded (${message})` });
  }
}

/** Opens a raw ICMPv6 socket on `interfaceName` with the native addon. */
export const openIcmpv6: Icmpv6Opener = (interfaceName, onPacket) => {
  const { binding, reason } = load();
  if (!binding) throw Object.assign(new Error(reason), { code: 'ENOSYS' });
  return binding.open(interfaceName, onPacket);
};

/** The errno name a native error carries, or null. */
export function errnoCode(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}
