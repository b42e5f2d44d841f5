/**
 * RMCP+ algorithms and the cipher suites we speak (IPMI v2.0 §13.28,
 * Table 22-20). Data, not code: the session reads digests and lengths here.
 */
export const AuthenticationAlgorithm = { NONE: 0x00, HMAC_SHA1: 0x01, HMAC_MD5: 0x02, HMAC_SHA256: 0x03 } as const;
export const IntegrityAlgorithm = { NONE: 0x00, HMAC_SHA1_96: 0x01, HMAC_MD5_128: 0x02, MD5_128: 0x03, HMAC_SHA256_128: 0x04 } as const;
export const ConfidentialityAlgorithm = { NONE: 0x00, AES_CBC_128: 0x01, XRC4_128: 0x02, XRC4_40: 0x03 } as const;

export interface CipherSuite {
  id: number;
  name: string;
  authentication: number;
  integrity: number;
  confidentiality: number;
  /** node:crypto digest of the RAKP HMACs, the SIK and K1/K2. */
  digest: 'sha1' | 'sha256';
  /** Length of the RAKP 2/3 key exchange auth codes (the full HMAC). */
  keyExchangeLength: number;
  /** Length of the RAKP 4 integrity check value and of every packet AuthCode (truncated HMAC). */
  integrityLength: number;
}

/** The suites this client implements; both use AES-CBC-128 confidentiality. */
export const CIPHER_SUITES: Readonly<Record<3 | 17, CipherSuite>> = {
  3: {
    id: 3,
    name: 'RAKP-HMAC-SHA1 / HMAC-SHA1-96 / AES-CBC-128',
    authentication: AuthenticationAlgorithm.HMAC_SHA1,
    integrity: IntegrityAlgorithm.HMAC_SHA1_96,
    confidentiality: ConfidentialityAlgorithm.AES_CBC_128,
    digest: 'sha1',
    keyExchangeLength: 20,
    integrityLength: 12,
  },
  17: {
    id: 17,
    name: 'RAKP-HMAC-SHA256 / HMAC-SHA256-128 / AES-CBC-128',
    authentication: AuthenticationAlgorithm.HMAC_SHA256,
    integrity: IntegrityAlgorithm.HMAC_SHA256_128,
    confidentiality: ConfidentialityAlgorithm.AES_CBC_128,
    digest: 'sha256',
    keyExchangeLength: 32,
    integrityLength: 16,
  },
};

export type CipherSuiteId = keyof typeof CIPHER_SUITES;
export const CIPHER_SUITE_IDS: readonly CipherSuiteId[] = [17, 3];

export function cipherSuite(id: CipherSuiteId): CipherSuite {
  return CIPHER_SUITES[id];
}

/** The suite whose algorithms match an Open Session Response, or undefined. */
export function cipherSuiteFor(algorithms: { authentication: number; integrity: number; confidentiality: number }): CipherSuite | undefined {
  return Object.values(CIPHER_SUITES).find(
    (suite) =>
      suite.authentication === algorithms.authentication &&
      suite.integrity === algorithms.integrity &&
      suite.confidentiality === algorithms.confidentiality,
  );
}
