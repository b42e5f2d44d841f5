/** What Bootwright asks of a BMC, whatever the protocol. */

import type { BmcPrivilege, BmcProtocol, BootDevice, CipherSuite, PowerAction, PowerState } from './power-contract.js';

// The protocol, state, action and device lists are API constants: they live in the contract.
export { BMC_PROTOCOLS, BOOT_DEVICES, POWER_ACTIONS, POWER_STATES, type BmcProtocol, type BootDevice, type PowerAction, type PowerState } from './power-contract.js';

export interface BootDeviceRequest {
  device: BootDevice;
  /** Every boot from now on (true) or the next boot only (false). */
  persistent: boolean;
  /** UEFI boot (true) or legacy BIOS (false). */
  efi: boolean;
}

export interface BmcIdentity {
  vendor: string | null;
  model: string | null;
  firmware: string | null;
}

/** How to reach and log in to a BMC. The password is plain text only in memory, for the call. */
export interface BmcTarget {
  protocol: BmcProtocol;
  address: string;
  port: number;
  username: string;
  password: string;
  /** Redfish: check the certificate chain and host name. */
  verifyTls: boolean;
  /** IPMI: cipher suite to use; null tries 17, then 3. */
  cipherSuite: CipherSuite | null;
  /** IPMI: session privilege (operator suffices for power control). */
  privilege: BmcPrivilege;
}

/** One logged-in conversation with a BMC; close() it when done. */
export interface BmcConnection {
  readonly protocol: BmcProtocol;
  /** A short description of how we talk (e.g. "IPMI v2.0 (RMCP+), cipher suite 17"). */
  readonly description: string;
  readonly cipherSuite: number | null;
  identify(): Promise<BmcIdentity>;
  powerState(): Promise<PowerState>;
  power(action: PowerAction): Promise<void>;
  setBootDevice(request: BootDeviceRequest): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PORTS: Readonly<Record<BmcProtocol, number>> = { ipmi: 623, redfish: 443 };
