import { BmcError } from '../bmc-error.js';
import type { BmcConnection, BmcIdentity, BmcTarget, BootDevice, BootDeviceRequest, PowerAction, PowerState } from '../bmc-client.js';
import type { CipherSuiteId } from './cipher-suites.js';
import { BootDeviceSelector, ChassisControlAction, chassisStatusResponse, Command, deviceIdResponse, Privilege, setBootFlagsRequest, type ChannelAuthCapabilities } from './commands.js';
import { Lan15Session } from './lan15-session.js';
import { LanplusSession } from './lanplus-session.js';
import { DEFAULT_IPMI_TIMING, exchangeOptions, type IpmiSession, type IpmiTiming } from './ipmi-session.js';
import { getChannelAuthCapabilities, tryDecode } from './presession.js';
import { PASSWORD_MAX_BYTES, USERNAME_MAX_BYTES } from './session-crypto.js';
import { decodeAsfDatagram, encodePresencePing, type AsfPongData } from './rmcp.js';
import { UdpExchange } from './udp-exchange.js';
import { vendorName } from './manufacturers.js';

const POWER_ACTION_CODES: Readonly<Record<PowerAction, number>> = {
  on: ChassisControlAction.POWER_UP,
  off: ChassisControlAction.POWER_DOWN,
  cycle: ChassisControlAction.POWER_CYCLE,
  reset: ChassisControlAction.HARD_RESET,
  soft: ChassisControlAction.SOFT_SHUTDOWN,
};

const BOOT_SELECTORS: Readonly<Record<BootDevice, number>> = {
  pxe: BootDeviceSelector.PXE,
  disk: BootDeviceSelector.DISK,
  cdrom: BootDeviceSelector.CDROM,
  bios: BootDeviceSelector.BIOS_SETUP,
};

/** Power control over an active IPMI session (Chassis and App commands, IPMI v2.0 §20, §28). */
export class IpmiConnection implements BmcConnection {
  readonly protocol = 'ipmi' as const;
  private readonly session: IpmiSession;

  constructor(session: IpmiSession) {
    this.session = session;
  }

  get description(): string {
    return this.session.description;
  }

  get cipherSuite(): number | null {
    return this.session.cipherSuite;
  }

  async identify(): Promise<BmcIdentity> {
    const data = await this.session.request(Command.GET_DEVICE_ID.netFn, Command.GET_DEVICE_ID.cmd);
    const device = tryDecode(() => deviceIdResponse.decode(data));
    if (!device) throw new BmcError('protocol', 'malformed Get Device ID response');
    return {
      vendor: vendorName(device.manufacturerId),
      model: `product 0x${device.productId.toString(16).padStart(4, '0')}`,
      firmware: `${device.firmwareMajor}.${String(device.firmwareMinor).padStart(2, '0')} (IPMI ${device.ipmiVersion})`,
    };
  }

  async powerState(): Promise<PowerState> {
    const data = await this.session.request(Command.GET_CHASSIS_STATUS.netFn, Command.GET_CHASSIS_STATUS.cmd);
    const status = tryDecode(() => chassisStatusResponse.decode(data));
    if (!status) throw new BmcError('protocol', 'malformed Get Chassis Status response');
    return status.powerOn ? 'on' : 'off';
  }

  async power(action: PowerAction): Promise<void> {
    await this.session.request(Command.CHASSIS_CONTROL.netFn, Command.CHASSIS_CONTROL.cmd, Buffer.from([POWER_ACTION_CODES[action]]));
  }

  async setBootDevice(request: BootDeviceRequest): Promise<void> {
    const data = setBootFlagsRequest.encode({ valid: true, persistent: request.persistent, efi: request.efi, device: BOOT_SELECTORS[request.device] });
    await this.session.request(Command.SET_SYSTEM_BOOT_OPTIONS.netFn, Command.SET_SYSTEM_BOOT_OPTIONS.cmd, data);
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

function credentialBytes(target: BmcTarget): { username: Buffer; password: Buffer } {
  const username = Buffer.from(target.username, 'utf8');
  const password = Buffer.from(target.password, 'utf8');
  if (username.length > USERNAME_MAX_BYTES) throw new BmcError('auth_failed', `IPMI user names are at most ${USERNAME_MAX_BYTES} bytes`);
  if (password.length > PASSWORD_MAX_BYTES) throw new BmcError('auth_failed', `IPMI passwords are at most ${PASSWORD_MAX_BYTES} bytes`);
  return { username, password };
}

/**
 * Logs in to an IPMI BMC: RMCP+ (lanplus) when the BMC offers IPMI v2.0,
 * otherwise an IPMI v1.5 MD5 session.
 */
export async function connectIpmi(target: BmcTarget, timing: IpmiTiming = DEFAULT_IPMI_TIMING, signal?: AbortSignal): Promise<IpmiConnection> {
  const { username, password } = credentialBytes(target);
  const privilege = target.privilege === 'operator' ? Privilege.OPERATOR : Privilege.ADMINISTRATOR;
  const label = `${target.address}:${target.port}`;
  // The signal closes the exchange: a session being set up or used fails with the deadline's error.
  const exchange = await UdpExchange.open(target.address, target.port, signal);
  try {
    const caps = await getChannelAuthCapabilities(exchange, privilege, exchangeOptions(timing), label);
    const session = caps.supportsV20
      ? await LanplusSession.open(exchange, label, { username, password, privilege }, timing, suitesFor(target.cipherSuite))
      : await Lan15Session.open(exchange, label, { username, password, privilege }, caps.authTypes, timing);
    return new IpmiConnection(session);
  } catch (err) {
    exchange.close();
    throw err;
  }
}

function suitesFor(cipherSuite: 3 | 17 | null): readonly CipherSuiteId[] {
  return cipherSuite === null ? [17, 3] : [cipherSuite];
}

/** Asks a BMC what it supports without logging in (for protocol detection). */
export async function ipmiCapabilities(address: string, port: number, timing: IpmiTiming = DEFAULT_IPMI_TIMING, signal?: AbortSignal): Promise<ChannelAuthCapabilities> {
  const exchange = await UdpExchange.open(address, port, signal);
  try {
    return await getChannelAuthCapabilities(exchange, Privilege.ADMINISTRATOR, exchangeOptions(timing), `${address}:${port}`);
  } finally {
    exchange.close();
  }
}

/** RMCP presence ping (DMTF ASF 2.0 §3.2.4.2): resolves with the pong's data. */
export async function presencePing(address: string, port: number, timing: IpmiTiming = DEFAULT_IPMI_TIMING): Promise<AsfPongData> {
  const exchange = await UdpExchange.open(address, port);
  const tag = Math.floor(Math.random() * 0xfe);
  let pong: AsfPongData | undefined;
  try {
    await exchange.exchange(
      () => encodePresencePing(tag),
      (msg) => {
        const decoded = tryDecode(() => decodeAsfDatagram(msg));
        if (!decoded?.message?.pong || decoded.message.tag !== tag) return false;
        pong = decoded.message.pong;
        return true;
      },
      exchangeOptions(timing),
    );
    return pong!;
  } finally {
    exchange.close();
  }
}
