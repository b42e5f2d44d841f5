import { AppError, errorMessage, type FieldError } from '../core/errors.js';
import { bmcAddressProblem, isValidPort } from './bmc-address.js';
import { BmcError, bmcReason, type BmcErrorReason } from './bmc-error.js';
import { DEFAULT_PORTS, type BmcConnection, type BmcTarget } from './bmc-client.js';
import { connectIpmi, ipmiCapabilities } from './ipmi/ipmi-connection.js';
import type { BmcProbeInput as ProbeInput, BmcProbeResult as ProbeResult } from './power-contract.js';
import type { IpmiTiming } from './ipmi/ipmi-session.js';
import { isRedfishService, RedfishConnection } from './redfish/redfish-connection.js';

/** Time limits of BMC conversations. */
export interface BmcTiming {
  ipmi: IpmiTiming;
  /** One Redfish HTTPS request, connect to last byte. */
  redfishTimeoutMs: number;
  /**
   * One whole operation (probe with detection, or log in plus status, power
   * or boot device): however a BMC dribbles its answers, nothing takes longer.
   */
  operationMs: number;
}

export const DEFAULT_BMC_TIMING: BmcTiming = { ipmi: { timeoutMs: 6_000, retries: 2 }, redfishTimeoutMs: 10_000, operationMs: 30_000 };

/**
 * Opens a logged-in conversation; tests may replace it. `signal` is the
 * operation's deadline: when it aborts, the connection gives up what it is
 * doing (its requests fail with the abort reason).
 */
export type BmcConnector = (target: BmcTarget, signal?: AbortSignal) => Promise<BmcConnection>;

export function defaultConnector(timing: BmcTiming): BmcConnector {
  return (target, signal) =>
    target.protocol === 'ipmi' ? connectIpmi(target, timing.ipmi, signal) : RedfishConnection.connect(target, timing.redfishTimeoutMs, signal);
}

/** An operation's deadline: `signal` aborts with a `timeout` BmcError after `ms`; dispose() when done. */
export function operationDeadline(ms: number, what: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new BmcError('timeout', `${what}: not done within ${ms} ms (the whole operation's time limit)`)), ms);
  return { signal: controller.signal, dispose: () => clearTimeout(timer) };
}

/**
 * Resolves or rejects as `work` does, or rejects with the abort reason as
 * soon as `signal` aborts — whichever is first. A late outcome of `work` is
 * swallowed (it already cleans up after itself), so nothing is left as an
 * unhandled rejection.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Runs `work` on a fresh connection and always closes it, all within the
 * operation's time limit (`operationMs`, or the caller's `signal`).
 */
export async function withConnection<T>(
  connector: BmcConnector,
  target: BmcTarget,
  work: (connection: BmcConnection) => Promise<T>,
  limit: { operationMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const deadline = limit.signal ? null : operationDeadline(limit.operationMs ?? DEFAULT_BMC_TIMING.operationMs, `${target.address}:${target.port}`);
  const signal = limit.signal ?? deadline!.signal;
  const run = async (): Promise<T> => {
    const connection = await connector(target, signal);
    try {
      // A connector that finished after the deadline gets no work: the caller has its answer already.
      if (signal.aborted) throw signal.reason as Error;
      return await work(connection);
    } finally {
      await connection.close().catch(() => undefined);
    }
  };
  try {
    return await raceAbort(run(), signal);
  } finally {
    deadline?.dispose();
  }
}

/** POST /bmc/probe: what to probe (the password is plain text for this call only) and what was found. */
export type { BmcProbeInput as ProbeInput, BmcProbeResult as ProbeResult } from './power-contract.js';

const UNREACHED: ReadonlySet<BmcErrorReason> = new Set(['timeout', 'unreachable']);

/**
 * Probes a BMC: finds the protocol when not given (IPMI's pre-session
 * capabilities query and Redfish's public service root, side by side),
 * logs in, reads identity and power state. Never throws for BMC trouble:
 * the result says what went wrong.
 */
export async function probeBmc(input: ProbeInput, connector: BmcConnector, timing: BmcTiming): Promise<ProbeResult> {
  checkProbeInput(input);
  const deadline = operationDeadline(timing.operationMs, `${input.address}: probe`);
  try {
    return await raceAbort(probeWithin(input, connector, timing, deadline.signal), deadline.signal).catch((err: unknown) => failed(unprobed(input), err));
  } finally {
    deadline.dispose();
  }
}

/** A probe of a malformed address or port is a 400 naming the field, never a request. */
function checkProbeInput(input: ProbeInput): void {
  const errors: FieldError[] = [];
  const problem = bmcAddressProblem(input.address);
  if (problem) errors.push({ field: 'body.address', message: problem });
  if (input.port !== undefined && !isValidPort(input.port)) errors.push({ field: 'body.port', message: 'must be an integer from 1 to 65535' });
  if (errors.length > 0) throw new AppError('VALIDATION_FAILED', errors.map((error) => `${error.field}: ${error.message}`).join('; '), { details: errors });
}

function unprobed(input: ProbeInput): ProbeResult {
  return {
    reachable: false,
    authenticated: false,
    protocol: input.protocol ?? null,
    port: input.port ?? DEFAULT_PORTS[input.protocol ?? 'ipmi'],
    session: null,
    cipher_suite: null,
    vendor: null,
    model: null,
    firmware: null,
    power_state: null,
    error: null,
    error_reason: null,
  };
}

async function probeWithin(input: ProbeInput, connector: BmcConnector, timing: BmcTiming, signal: AbortSignal): Promise<ProbeResult> {
  const verifyTls = input.verify_tls ?? true;
  let protocol = input.protocol ?? null;
  let detectionError: unknown = null;
  if (!protocol) {
    const [ipmi, redfish] = await Promise.allSettled([
      ipmiCapabilities(input.address, input.port ?? DEFAULT_PORTS.ipmi, timing.ipmi, signal),
      isRedfishService(input.address, input.port ?? DEFAULT_PORTS.redfish, verifyTls, timing.redfishTimeoutMs, signal),
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
  const base: ProbeResult = { ...unprobed(input), protocol, port };
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
    }, { signal });
  } catch (err) {
    return failed(base, err);
  }
}

function failed(base: ProbeResult, err: unknown): ProbeResult {
  const reason = bmcReason(err);
  return { ...base, reachable: !UNREACHED.has(reason), error: errorMessage(err), error_reason: reason };
}
