export { TftpService, type TftpServiceDeps, type TftpThreading } from './tftp-service.js';
export { TftpServer, type TftpServerConfig, type TftpServerEvent } from './tftp-server.js';
export { tftpCodec, encode, decode, encodingLength, TftpDecodeError, type TftpPacket, type TftpOption } from './tftp-codec.js';
