import { BmcError, bmcReason, type BmcErrorReason } from './bmc-error.js';
import { DEFAULT_PORTS, type BmcConnection, type BmcProtocol, type BmcTarget, type PowerState } from './bmc-client.js';
import { connectIpmi, ipmiCapabilities } from './ipmi/ipmi-connection.js';
import type { IpmiTiming } from './ipmi/ipmi-session.js';
import { isRedfishService, RedfishConnection } from './redfish/redfish-connection.js';
import { errorMessage } from '../core/errors.js';

/** Time limits of BMC conversations. */
export interface BmcTiming {
  ipmi: IpmiTiming;
  redfishTimeoutMs: number;
}

export const DEFAULT_BMC_TIMING: BmcTiming = { ipmi: { timeoutMs: 6_000, retries: 2 }, redfishTimeoutMs: 10_000 };

/** Opens a logged-in conversation; tests may replace it. */
export type BmcConnector = (target: BmcTarget) => Promise<BmcConnection>;

export function defaultConnector(timing: BmcTiming): BmcConnector {
  return (target) => (target.protocol === 'ipmi' ? connectIpmi(target, timing.ipmi) : RedfishConnection.connect(target, timing.redfishTimeoutMs));
}

/** Runs `work` on a fresh connection and always closes it. */
export async function withConnection<T>(connector: BmcConnector, target: BmcTarget, work: (connection: BmcConnection) => Promise<T>): Promise<T> {
  const connection = await connector(target);
  try {
    return await work(connection);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

export interface ProbeInput {
  address: string;
  port?: number;
  protocol?: BmcProtocol;
  username: string;
  password: string;
  verify_tls?: boolean;
  cipher_suite?: 3 | 17 | null;
}

export interface ProbeResult {
  /** The BMC answered at all (false for timeouts, refused connections, unresolvable names). */
  reachable: boolean;
  /** Logged in and read the state. */
  authenticated: boolean;
  protocol: BmcProtocol | null;
  port: number;
  /** How we talked, e.g. "IPMI v2.0 (RMCP+), cipher suite 3". */
  session: string | null;
  cipher_suite: number | null;
  vendor: string | null;
  model: string | null;
  firmware: string | null;
  power_state: PowerState | null;
  error: string | null;
  error_reason: BmcErrorReason | null;
}

const UNREACHED: ReadonlySet<BmcErrorReason> = new Set(['timeout', 'unreachable']);

/**
 * Probes a BMC: finds the protocol when not given (IPMI's pre-session
 * capabilities query and Redfish's public service root, side by side),
 * logs in, reads identity and power state. Never throws for BMC trouble:
 * the result says what went wrong.
 */
export async function probeBmc(input: ProbeInput, connector: BmcConnector, timing: BmcTiming): Promise<ProbeResult> {
  const verifyTls = input.verify_tls ?? true;
  let protocol = input.protocol ?? null;
  let detectionError: unknown = null;
  if (!protocol) {
    const [ipmi, redfish] = await Promise.allSettled([
      ipmiCapabilities(input.address, input.port ?? DEFAULT_PORTS.ipmi, timing.ipmi),
      isRedfishService(input.address, input.port ?? DEFAULT_PORTS.redfish, verifyTls, timing.redfishTimeoutMs),
    ]);
    if (ipmi.status === 'fulfilled') protocol = 'ipmi';
    else if (redfish.status === 'fulfilled' && redfish.value) protocol = 'redfish';
    else {
      // Prefer the Redfish error when it got further than a timeout (a TLS problem says more than silence).
      const redfishError = redfish.status === 'rejected' ? redfish.reason : new BmcError('protocol', `${input.address}: neither IPMI nor Redfish answered`);
      detectionError = !UNREACHED.has(bmcReason(redfishError)) ? redfishError : ipmi.status === 'rejected' ? ipmi.reason : redfishError;
    }
  }
  const port = input.port ?? DEFAULT_PORTS[protocol ?? 'ipmi'];
  const base: ProbeResult = {
    reachable: false,
    authenticated: false,
    protocol,
    port,
    session: null,
    cipher_suite: null,
    vendor: null,
    model: null,
    firmware: null,
    power_state: null,
    error: null,
    error_reason: null,
  };
  if (!protocol) return failed(base, detectionError);
  const target: BmcTarget = {
    protocol,
    address: input.address,
    port,
    username: input.username,
    password: input.password,
    verifyTls,
    cipherSuite: input.cipher_suite ?? null,
    privilege: 'administrator',
  };
  try {
    return await withConnection(connector, target, async (connection) => {
      const identity = await connection.identify();
      const powerState = await connection.powerState();
      return {
        ...base,
        reachable: true,
        authenticated: true,
        session: connection.description,
        cipher_suite: connection.cipherSuite,
        vendor: identity.vendor,
        model: identity.model,
        firmware: identity.firmware,
        power_state: powerState,
      };
    });
  } catch (err) {
    return failed(base, err);
  }
}

function failed(base: ProbeResult, err: unknown): ProbeResult {
  const reason = bmcReason(err);
  return { ...base, reachable: !UNREACHED.has(reason), error: errorMessage(err), error_reason: reason };
}
