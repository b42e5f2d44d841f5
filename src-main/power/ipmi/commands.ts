import { checkLength, checkRange, defineCodec, IpmiDecodeError } from './codec.js';

/** Network functions (IPMI v2.0 §5.1, Table 5-1); responses use netFn + 1. */
export const NetFn = { CHASSIS: 0x00, APP: 0x06 } as const;

/** The commands this client sends (IPMI v2.0 Appendix G). */
export const Command = {
  GET_DEVICE_ID: { netFn: NetFn.APP, cmd: 0x01 },
  GET_CHANNEL_AUTH_CAPABILITIES: { netFn: NetFn.APP, cmd: 0x38 },
  GET_SESSION_CHALLENGE: { netFn: NetFn.APP, cmd: 0x39 },
  ACTIVATE_SESSION: { netFn: NetFn.APP, cmd: 0x3a },
  SET_SESSION_PRIVILEGE_LEVEL: { netFn: NetFn.APP, cmd: 0x3b },
  CLOSE_SESSION: { netFn: NetFn.APP, cmd: 0x3c },
  GET_CHASSIS_STATUS: { netFn: NetFn.CHASSIS, cmd: 0x01 },
  CHASSIS_CONTROL: { netFn: NetFn.CHASSIS, cmd: 0x02 },
  SET_SYSTEM_BOOT_OPTIONS: { netFn: NetFn.CHASSIS, cmd: 0x08 },
} as const;

/** Privilege levels (§6.8). */
export const Privilege = { CALLBACK: 0x01, USER: 0x02, OPERATOR: 0x03, ADMINISTRATOR: 0x04 } as const;

/** Chassis Control sub-commands (§28.3, Table 28-4). */
export const ChassisControlAction = {
  POWER_DOWN: 0x00,
  POWER_UP: 0x01,
  POWER_CYCLE: 0x02,
  HARD_RESET: 0x03,
  PULSE_DIAGNOSTIC_INTERRUPT: 0x04,
  SOFT_SHUTDOWN: 0x05,
} as const;

/** Boot device selectors of boot flags data byte 2, bits 5:2 (§28.13, Table 28-14, parameter 5). */
export const BootDeviceSelector = { NONE: 0x0, PXE: 0x1, DISK: 0x2, DISK_SAFE_MODE: 0x3, DIAGNOSTIC: 0x4, CDROM: 0x5, BIOS_SETUP: 0x6 } as const;

/** Channel number meaning "the channel this request arrived on" (§6.3). */
export const CURRENT_CHANNEL = 0x0e;

/** Authentication type support bits of Get Channel Authentication Capabilities (§22.13). */
export const AuthTypeSupport = { NONE: 0x01, MD2: 0x02, MD5: 0x04, PASSWORD: 0x10, OEM: 0x20 } as const;

// ---- Get Channel Authentication Capabilities (App 38h, §22.13) ----

export interface ChannelAuthCapabilitiesRequest {
  channel: number;
  /** Bit 7: ask for IPMI v2.0+ extended data. */
  extended: boolean;
  privilege: number;
}

export const channelAuthCapabilitiesRequest = defineCodec<ChannelAuthCapabilitiesRequest>({
  encodingLength: () => 2,
  write(value, buf, offset) {
    buf[offset] = (value.extended ? 0x80 : 0) | checkRange(value.channel, 0, 0x0f, 'channel');
    buf[offset + 1] = checkRange(value.privilege, 0, 0x0f, 'privilege');
    return 2;
  },
  read(reader) {
    const first = reader.u8('channel');
    return { channel: first & 0x0f, extended: (first & 0x80) !== 0, privilege: reader.u8('privilege') & 0x0f };
  },
});

export interface ChannelAuthCapabilities {
  channel: number;
  /** AuthTypeSupport bits (v1.5 authentication types). */
  authTypes: number;
  /** Byte 2 bit 7: the extended capabilities byte is meaningful. */
  extendedCapabilities: boolean;
  kgSet: boolean;
  perMessageAuthDisabled: boolean;
  userLevelAuthDisabled: boolean;
  nonNullUsernames: boolean;
  nullUsernames: boolean;
  anonymousLogin: boolean;
  supportsV15: boolean;
  supportsV20: boolean;
  oemId: number;
  oemAux: number;
}

export const channelAuthCapabilities = defineCodec<ChannelAuthCapabilities>({
  encodingLength: () => 8,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.channel, 0, 0x0f, 'channel');
    buf[offset + 1] = (value.extendedCapabilities ? 0x80 : 0) | checkRange(value.authTypes, 0, 0x3f, 'auth types');
    buf[offset + 2] =
      (value.kgSet ? 0x20 : 0) |
      (value.perMessageAuthDisabled ? 0x10 : 0) |
      (value.userLevelAuthDisabled ? 0x08 : 0) |
      (value.nonNullUsernames ? 0x04 : 0) |
      (value.nullUsernames ? 0x02 : 0) |
      (value.anonymousLogin ? 0x01 : 0);
    buf[offset + 3] = (value.supportsV20 ? 0x02 : 0) | (value.supportsV15 ? 0x01 : 0);
    buf.writeUIntLE(checkRange(value.oemId, 0, 0xffffff, 'OEM id'), offset + 4, 3);
    buf[offset + 7] = checkRange(value.oemAux, 0, 0xff, 'OEM aux');
    return 8;
  },
  read(reader) {
    const channel = reader.u8('channel') & 0x0f;
    const types = reader.u8('auth type support');
    const status = reader.u8('auth status');
    const extended = reader.u8('extended capabilities');
    reader.need(4, 'OEM id');
    const oemId = reader.buf.readUIntLE(reader.offset, 3);
    reader.skip(3, 'OEM id');
    const oemAux = reader.u8('OEM aux');
    const extendedCapabilities = (types & 0x80) !== 0;
    return {
      channel,
      authTypes: types & 0x3f,
      extendedCapabilities,
      kgSet: (status & 0x20) !== 0,
      perMessageAuthDisabled: (status & 0x10) !== 0,
      userLevelAuthDisabled: (status & 0x08) !== 0,
      nonNullUsernames: (status & 0x04) !== 0,
      nullUsernames: (status & 0x02) !== 0,
      anonymousLogin: (status & 0x01) !== 0,
      // Without the extended byte a BMC speaks v1.5 only.
      supportsV15: extendedCapabilities ? (extended & 0x01) !== 0 : true,
      supportsV20: extendedCapabilities && (extended & 0x02) !== 0,
      oemId,
      oemAux,
    };
  },
});

// ---- Get Device ID (App 01h, §20.1) ----

export interface DeviceId {
  deviceId: number;
  deviceRevision: number;
  providesSdrs: boolean;
  deviceAvailable: boolean;
  firmwareMajor: number;
  /** Binary value of the BCD minor revision byte (e.g. 0x08 → 8, 0x21 → 21). */
  firmwareMinor: number;
  /** "2.0", "1.5" (BCD nibbles, minor first on the wire). */
  ipmiVersion: string;
  additionalSupport: number;
  /** IANA enterprise number, 20 bits. */
  manufacturerId: number;
  productId: number;
  auxFirmware?: Buffer;
}

function bcdToNumber(byte: number): number {
  const high = byte >> 4;
  const low = byte & 0x0f;
  // Not every BMC writes valid BCD; fall back to the binary value.
  return high > 9 || low > 9 ? byte : high * 10 + low;
}

function numberToBcd(value: number): number {
  return ((Math.floor(value / 10) % 10) << 4) | value % 10;
}

export const deviceIdResponse = defineCodec<DeviceId>({
  encodingLength: (value) => 11 + (value.auxFirmware ? 4 : 0),
  write(value, buf, offset) {
    buf[offset] = checkRange(value.deviceId, 0, 0xff, 'device id');
    buf[offset + 1] = (value.providesSdrs ? 0x80 : 0) | checkRange(value.deviceRevision, 0, 0x0f, 'device revision');
    buf[offset + 2] = (value.deviceAvailable ? 0 : 0x80) | checkRange(value.firmwareMajor, 0, 0x7f, 'firmware major');
    buf[offset + 3] = numberToBcd(checkRange(value.firmwareMinor, 0, 99, 'firmware minor'));
    const [major, minor] = value.ipmiVersion.split('.').map(Number);
    buf[offset + 4] = (checkRange(minor ?? 0, 0, 15, 'IPMI minor version') << 4) | checkRange(major ?? 0, 0, 15, 'IPMI major version');
    buf[offset + 5] = checkRange(value.additionalSupport, 0, 0xff, 'additional support');
    buf.writeUIntLE(checkRange(value.manufacturerId, 0, 0xfffff, 'manufacturer id'), offset + 6, 3);
    buf.writeUInt16LE(checkRange(value.productId, 0, 0xffff, 'product id'), offset + 9);
    if (value.auxFirmware) checkLength(value.auxFirmware, 4, 'aux firmware').copy(buf, offset + 11);
    return 11 + (value.auxFirmware ? 4 : 0);
  },
  read(reader) {
    const deviceId = reader.u8('device id');
    const revision = reader.u8('device revision');
    const fw1 = reader.u8('firmware revision 1');
    const fw2 = reader.u8('firmware revision 2');
    const version = reader.u8('IPMI version');
    const additionalSupport = reader.u8('additional device support');
    reader.need(3, 'manufacturer id');
    const manufacturerId = reader.buf.readUIntLE(reader.offset, 3) & 0xfffff;
    reader.skip(3, 'manufacturer id');
    const productId = reader.u16le('product id');
    const value: DeviceId = {
      deviceId,
      deviceRevision: revision & 0x0f,
      providesSdrs: (revision & 0x80) !== 0,
      deviceAvailable: (fw1 & 0x80) === 0,
      firmwareMajor: fw1 & 0x7f,
      firmwareMinor: bcdToNumber(fw2),
      ipmiVersion: `${version & 0x0f}.${version >> 4}`,
      additionalSupport,
      manufacturerId,
      productId,
    };
    if (reader.remaining >= 4) value.auxFirmware = reader.bytes(4, 'aux firmware');
    return value;
  },
});

// ---- Get Chassis Status (Chassis 01h, §28.2) ----

export interface ChassisStatus {
  powerOn: boolean;
  overload: boolean;
  interlock: boolean;
  powerFault: boolean;
  controlFault: boolean;
  /** 0 stays off, 1 restores, 2 powers up, 3 unknown. */
  restorePolicy: number;
  lastPowerEvent: number;
  miscState: number;
  frontPanel?: number;
}

export const chassisStatusResponse = defineCodec<ChassisStatus>({
  encodingLength: (value) => 3 + (value.frontPanel === undefined ? 0 : 1),
  write(value, buf, offset) {
    buf[offset] =
      (checkRange(value.restorePolicy, 0, 3, 'restore policy') << 5) |
      (value.controlFault ? 0x10 : 0) |
      (value.powerFault ? 0x08 : 0) |
      (value.interlock ? 0x04 : 0) |
      (value.overload ? 0x02 : 0) |
      (value.powerOn ? 0x01 : 0);
    buf[offset + 1] = checkRange(value.lastPowerEvent, 0, 0xff, 'last power event');
    buf[offset + 2] = checkRange(value.miscState, 0, 0xff, 'misc chassis state');
    if (value.frontPanel !== undefined) buf[offset + 3] = checkRange(value.frontPanel, 0, 0xff, 'front panel');
    return 3 + (value.frontPanel === undefined ? 0 : 1);
  },
  read(reader) {
    const power = reader.u8('current power state');
    const lastPowerEvent = reader.u8('last power event');
    const miscState = reader.u8('misc chassis state');
    const value: ChassisStatus = {
      powerOn: (power & 0x01) !== 0,
      overload: (power & 0x02) !== 0,
      interlock: (power & 0x04) !== 0,
      powerFault: (power & 0x08) !== 0,
      controlFault: (power & 0x10) !== 0,
      restorePolicy: (power >> 5) & 0x03,
      lastPowerEvent,
      miscState,
    };
    if (reader.remaining >= 1) value.frontPanel = reader.u8('front panel');
    return value;
  },
});

// ---- Set System Boot Options, parameter 5: boot flags (Chassis 08h, §28.12–28.13) ----

export const BOOT_FLAGS_PARAMETER = 5;

export interface BootFlags {
  /** Byte 1 bit 7: the flags are valid (apply them). */
  valid: boolean;
  /** Byte 1 bit 6: all future boots (true) or the next boot only (false). */
  persistent: boolean;
  /** Byte 1 bit 5: EFI boot (true) or legacy PC (false). */
  efi: boolean;
  /** Byte 2 bits 5:2, a BootDeviceSelector. */
  device: number;
}

/** The request data: parameter selector 5 and the 5 data bytes of the boot flags. */
export const setBootFlagsRequest = defineCodec<BootFlags>({
  encodingLength: () => 6,
  write(value, buf, offset) {
    buf[offset] = BOOT_FLAGS_PARAMETER;
    buf[offset + 1] = (value.valid ? 0x80 : 0) | (value.persistent ? 0x40 : 0) | (value.efi ? 0x20 : 0);
    buf[offset + 2] = checkRange(value.device, 0, 0x0f, 'boot device selector') << 2;
    buf.fill(0, offset + 3, offset + 6);
    return 6;
  },
  read(reader) {
    const parameter = reader.u8('parameter selector') & 0x7f;
    if (parameter !== BOOT_FLAGS_PARAMETER) throw new IpmiDecodeError(`boot options parameter ${parameter}, expected 5`);
    const flags = reader.u8('boot flags byte 1');
    const device = (reader.u8('boot flags byte 2') >> 2) & 0x0f;
    reader.skip(3, 'boot flags bytes 3-5');
    return { valid: (flags & 0x80) !== 0, persistent: (flags & 0x40) !== 0, efi: (flags & 0x20) !== 0, device };
  },
});

// ---- IPMI v1.5 session commands (§22.16–22.19) ----

export interface SessionChallengeRequest {
  authType: number;
  /** Up to 16 bytes; sent null-padded to 16. */
  username: Buffer;
}

export const sessionChallengeRequest = defineCodec<SessionChallengeRequest>({
  encodingLength: () => 17,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.authType, 0, 0x0f, 'auth type');
    buf.fill(0, offset + 1, offset + 17);
    checkRange(value.username.length, 0, 16, 'username length');
    value.username.copy(buf, offset + 1);
    return 17;
  },
  read(reader) {
    const authType = reader.u8('auth type') & 0x0f;
    const name = reader.bytes(16, 'username');
    const end = name.indexOf(0);
    return { authType, username: end < 0 ? name : Buffer.from(name.subarray(0, end)) };
  },
});

export interface SessionChallenge {
  temporarySessionId: number;
  challenge: Buffer;
}

export const sessionChallengeResponse = defineCodec<SessionChallenge>({
  encodingLength: () => 20,
  write(value, buf, offset) {
    buf.writeUInt32LE(checkRange(value.temporarySessionId, 0, 0xffffffff, 'temporary session id'), offset);
    checkLength(value.challenge, 16, 'challenge').copy(buf, offset + 4);
    return 20;
  },
  read(reader) {
    return { temporarySessionId: reader.u32le('temporary session id'), challenge: reader.bytes(16, 'challenge') };
  },
});

export interface ActivateSessionRequest {
  authType: number;
  privilege: number;
  challenge: Buffer;
  initialOutboundSequence: number;
}

export const activateSessionRequest = defineCodec<ActivateSessionRequest>({
  encodingLength: () => 22,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.authType, 0, 0x0f, 'auth type');
    buf[offset + 1] = checkRange(value.privilege, 0, 0x0f, 'privilege');
    checkLength(value.challenge, 16, 'challenge').copy(buf, offset + 2);
    buf.writeUInt32LE(checkRange(value.initialOutboundSequence, 1, 0xffffffff, 'initial outbound sequence'), offset + 18);
    return 22;
  },
  read(reader) {
    const authType = reader.u8('auth type') & 0x0f;
    const privilege = reader.u8('privilege') & 0x0f;
    const challenge = reader.bytes(16, 'challenge');
    return { authType, privilege, challenge, initialOutboundSequence: reader.u32le('initial outbound sequence') };
  },
});

export interface ActivatedSession {
  authType: number;
  sessionId: number;
  initialInboundSequence: number;
  maxPrivilege: number;
}

export const activateSessionResponse = defineCodec<ActivatedSession>({
  encodingLength: () => 10,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.authType, 0, 0x0f, 'auth type');
    buf.writeUInt32LE(checkRange(value.sessionId, 0, 0xffffffff, 'session id'), offset + 1);
    buf.writeUInt32LE(checkRange(value.initialInboundSequence, 0, 0xffffffff, 'initial inbound sequence'), offset + 5);
    buf[offset + 9] = checkRange(value.maxPrivilege, 0, 0x0f, 'max privilege');
    return 10;
  },
  read(reader) {
    const authType = reader.u8('auth type') & 0x0f;
    const sessionId = reader.u32le('session id');
    const initialInboundSequence = reader.u32le('initial inbound sequence');
    return { authType, sessionId, initialInboundSequence, maxPrivilege: reader.u8('max privilege') & 0x0f };
  },
});

/** Close Session request data: the BMC's session id (§22.19). */
export function closeSessionRequest(bmcSessionId: number): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeUInt32LE(bmcSessionId >>> 0);
  return buf;
}
