import { hasNativeShape, nativeModuleLoader } from '../../core/native-addon.js';

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

const load = nativeModuleLoader(
  () => process.env[ADDON_OVERRIDE] || '@bootwright/sendfile/icmpv6',
  'raw ICMPv6',
  (value): value is Icmpv6Binding => hasNativeShape(value, 'open'),
);

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
