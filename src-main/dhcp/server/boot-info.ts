import type { Archmap } from '../archmap.js';
import type { ClientRequest } from './client-request.js';
import type { DhcpOption } from './dhcp-codec.js';
import { OPT } from '../dhcp-options.js';
import { GRUB_CHAINS, loaderArchitectureOf, type BootLoader } from '../boot-loader-chains.js';

/** The path of the iPXE entry script under the HTTP boot root (the boot chain serves it). */
export const IPXE_ENTRY_PATH = 'ipxe/entry.ipxe';

/** What a boot-capable client is told to load. */
export interface BootInfo {
  kind: 'tftp' | 'ipxe' | 'http';
  /** For TFTP a path relative to the boot root, otherwise a URL. */
  file: string;
  /** Option 60 to return: HTTP boot needs "HTTPClient" (UEFI 2.5+ §24.7.1); PXE uses "PXEClient" only in proxy replies. */
  vendorClass: 'PXEClient' | 'HTTPClient' | null;
  /** The architecture name from the map, for events. */
  archName: string | null;
  /** Which loader the file starts: iPXE (the map's files, iPXE's entry script) or the signed GRUB chain; null for a reservation's own file. */
  loader: BootLoader | null;
}

export interface BootContext {
  archmap: Archmap;
  /** `http://<our address>:<port>` (https with TLS) as the client reaches us. */
  httpBase: (serverAddress: string) => string;
  /** Per-client first-stage override (reservation boot_file), or null. */
  bootFileOverride: string | null;
}

/**
 * Chooses the boot information for a client (PXE 2.1; RFC 4578; UEFI HTTP
 * boot). iPXE gets the entry script URL, which breaks the PXE → iPXE → PXE
 * loop; UEFI HTTP-boot clients get an http URL to the map's file; PXE ROMs
 * get the map's TFTP file for their architecture. Clients that are none of
 * these get nothing. Null also when the architecture has no boot file.
 */
export function chooseBootInfo(client: ClientRequest, serverAddress: string, context: BootContext): BootInfo | null {
  const entry = client.arch === null ? undefined : context.archmap.lookup(client.arch);
  const archName = entry?.name ?? null;
  if (client.ipxe) {
    return { kind: 'ipxe', file: `${context.httpBase(serverAddress)}/boot/${IPXE_ENTRY_PATH}`, vendorClass: client.pxe ? 'PXEClient' : null, archName, loader: 'ipxe' };
  }
  if (client.httpBoot) {
    const path = context.bootFileOverride ?? entry?.http_boot_url_path ?? entry?.boot_file ?? null;
    if (path === null) return null;
    return { kind: 'http', file: `${context.httpBase(serverAddress)}/boot/${path}`, vendorClass: 'HTTPClient', archName, loader: context.bootFileOverride === null ? 'ipxe' : null };
  }
  if (client.pxe) {
    // A PXE ROM that sends no option 93 is a BIOS one (PXE 2.1 predates RFC 4578).
    const fallback = client.arch === null ? context.archmap.lookup(0) : undefined;
    const name = archName ?? fallback?.name ?? null;
    if (context.bootFileOverride !== null) return { kind: 'tftp', file: context.bootFileOverride, vendorClass: 'PXEClient', archName: name, loader: null };
    // UEFI x64 and ARM64 machines get iPXE or the signed GRUB chain, per machine (boot-loader-chains.ts).
    const architecture = loaderArchitectureOf(client.arch);
    if (architecture !== null && context.archmap.loaderFor(client.mac, architecture).loader === 'grub') {
      return { kind: 'tftp', file: GRUB_CHAINS[architecture].shim, vendorClass: 'PXEClient', archName: name, loader: 'grub' };
    }
    const path = entry?.boot_file ?? fallback?.boot_file ?? null;
    if (path === null) return null;
    return { kind: 'tftp', file: path, vendorClass: 'PXEClient', archName: name, loader: 'ipxe' };
  }
  return null;
}

/**
 * The fields and options that carry boot information in a reply: siaddr (the
 * TFTP "next server"), sname/option 66, file/option 67 (RFC 2132 §9.4, §9.5),
 * option 60 where needed, option 43 for proxy replies to PXE ROMs, iPXE's
 * no-pxedhcp flag in server replies to iPXE, and the client's option 97 echoed (RFC 4578 §2.3; PXE ROMs drop replies without it).
 */
export interface BootFields {
  siaddr: string;
  sname: string;
  file: string;
  options: DhcpOption[];
}

/**
 * PXE vendor options (option 43) for a proxyDHCP offer: PXE_DISCOVERY_CONTROL
 * (tag 6) = 8, "the boot file name in the offer is used, no boot server
 * discovery" (PXE 2.1 §2.4.2.1). Sent only in proxy replies, where PXE ROMs
 * need option 43 to accept an offer without an address.
 */
const PXE_DIRECT_BOOT = Buffer.from([6, 1, 8, 255]);

/**
 * Option 175 with iPXE's "no-pxedhcp" flag (175.176 = 1). Without it iPXE,
 * having an OFFER, waits up to 2 s for ProxyDHCP offers (resending its
 * DISCOVER after 1 s, then REQUESTing ~3 s after the first) unless the
 * OFFER itself says PXEClient. In server mode our OFFER already carries the
 * boot file, so there is nothing to wait for; the flag also makes iPXE ignore
 * PXE-specific options (43), which server mode does not send.
 * See docs/performance.md, "Boot time".
 */
const IPXE_NO_PXEDHCP = Buffer.from([176, 1, 1]);

export function bootFields(info: BootInfo, client: ClientRequest, serverAddress: string, options: { proxy: boolean; bootItem?: Buffer | null }): BootFields {
  const out: DhcpOption[] = [];
  const sendVendorClass = info.vendorClass === 'HTTPClient' || (options.proxy && info.vendorClass !== null);
  if (sendVendorClass && info.vendorClass) out.push({ code: OPT.VENDOR_CLASS, data: Buffer.from(info.vendorClass, 'latin1') });
  if (info.kind === 'tftp') out.push({ code: OPT.TFTP_SERVER_NAME, data: Buffer.from(serverAddress, 'latin1') });
  out.push({ code: OPT.BOOTFILE_NAME, data: Buffer.from(info.file, 'latin1') });
  if (!options.proxy && info.kind === 'ipxe') out.push({ code: OPT.IPXE_ENCAP, data: IPXE_NO_PXEDHCP });
  if (options.proxy && info.vendorClass === 'PXEClient') {
    out.push({ code: OPT.VENDOR_SPECIFIC, data: options.bootItem ? pxeBootItemReply(options.bootItem) : PXE_DIRECT_BOOT });
  }
  if (client.uuid) out.push({ code: OPT.CLIENT_UUID, data: client.uuid });
  const fileFits = Buffer.byteLength(info.file, 'latin1') <= 127;
  return {
    siaddr: serverAddress,
    sname: info.kind === 'tftp' ? serverAddress : '',
    file: fileFits ? info.file : '',
    options: out,
  };
}

/**
 * A boot server's reply to a port 4011 request repeats the PXE_BOOT_ITEM
 * (tag 71) the client asked for (PXE 2.1 §2.2.6), after the discovery control.
 */
function pxeBootItemReply(requestVendorOptions: Buffer): Buffer {
  let at = 0;
  while (at + 1 < requestVendorOptions.length) {
    const tag = requestVendorOptions[at]!;
    if (tag === 255) break;
    if (tag === 0) {
      at += 1;
      continue;
    }
    const length = requestVendorOptions[at + 1]!;
    if (at + 2 + length > requestVendorOptions.length) break;
    if (tag === 71 && length === 4) {
      return Buffer.concat([Buffer.from([6, 1, 8]), requestVendorOptions.subarray(at, at + 6), Buffer.from([255])]);
    }
    at += 2 + length;
  }
  return PXE_DIRECT_BOOT;
}
