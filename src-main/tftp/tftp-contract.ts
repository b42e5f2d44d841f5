import { Type, type Static } from 'typebox';

/*
 * The TFTP API's contract: the TypeBox schemas and limits of
 * /api/v1/services/tftp. It imports nothing but typebox and other contracts
 * (a test checks it) so the renderer can import it too (alias @contracts/tftp).
 */

/** RFC 2348: blksize between 8 and 65464 octets (65464 = 65535 - IP and UDP headers - 4 bytes of TFTP header, rounded). */
export const MAX_BLKSIZE = 65464;
/** RFC 7440 allows 1 to 65535; Bootwright caps windows at 64 blocks (larger windows only add loss on a LAN). */
export const MAX_WINDOWSIZE = 64;
/** RFC 2349: the timeout option is 1 to 255 seconds. */
export const MIN_TIMEOUT_S = 1;
export const MAX_TIMEOUT_S = 255;

/** The ranges of the settings (the server's protocol limits, server/tftp-constants.ts, come from here). */
export const TFTP_SETTING_LIMITS = {
  port: { min: 1, max: 65535 },
  /** A cap below RFC 1350's 512 would be meaningless: clients that ask for nothing get 512 anyway. */
  max_blksize: { min: 512, max: MAX_BLKSIZE },
  max_windowsize: { min: 1, max: MAX_WINDOWSIZE },
  timeout: { min: MIN_TIMEOUT_S, max: MAX_TIMEOUT_S },
  retries: { min: 1, max: 20 },
} as const;

const limit = (key: keyof typeof TFTP_SETTING_LIMITS, description: string) =>
  Type.Integer({ minimum: TFTP_SETTING_LIMITS[key].min, maximum: TFTP_SETTING_LIMITS[key].max, description });

/** GET /services/tftp. */
export const TftpSettingsViewSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Runs (and starts with the app); false stops it. The service auto-start flag.' }),
    port: limit('port', 'UDP port of requests (default 69)'),
    root: Type.String({ description: 'Directory served (its real path); default the boot root <data-dir>/boot' }),
    max_blksize: limit('max_blksize', 'Largest blksize granted (RFC 2348); default 1468'),
    max_windowsize: limit('max_windowsize', 'Largest windowsize granted (RFC 7440); default 64'),
    timeout: limit('timeout', 'Retransmission timeout in seconds when the client asks none (RFC 2349); default 2'),
    retries: limit('retries', 'Retransmissions before a transfer is abandoned; default 5'),
  },
  { $id: 'TftpSettings' },
);
export type TftpSettingsView = Static<typeof TftpSettingsViewSchema>;

/** PUT /services/tftp: only the fields sent change. */
export const TftpSettingsUpdateSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    port: Type.Optional(limit('port', 'UDP port')),
    root: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()], {
        description:
          'Admin only to change (sending the current root is not a change). Absolute path of an existing directory inside an allowed root (GET /settings/served-roots), never /, a system folder or the data directory; null resets to the boot root',
      }),
    ),
    max_blksize: Type.Optional(limit('max_blksize', 'blksize cap')),
    max_windowsize: Type.Optional(limit('max_windowsize', 'windowsize cap')),
    timeout: Type.Optional(limit('timeout', 'seconds')),
    retries: Type.Optional(limit('retries', 'count')),
  },
  { additionalProperties: false },
);
export type TftpSettingsUpdate = Static<typeof TftpSettingsUpdateSchema>;
