export { TftpService, type TftpServiceDeps, type TftpThreading } from './tftp-service.js';
export { TftpSettings, TFTP_DEFAULTS, TFTP_SETTING_LIMITS, type StoredTftpSettings, type TftpSettingsPatch } from './tftp-settings.js';
export { TftpServer, type TftpServerConfig, type TftpServerEvent } from './tftp-server.js';
export { tftpCodec, encode, decode, encodingLength, TftpDecodeError, type TftpPacket, type TftpOption } from './tftp-codec.js';
