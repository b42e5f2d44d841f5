import { BmcError } from '../bmc-error.js';
import type { BmcConnection, BmcIdentity, BmcTarget, BootDevice, BootDeviceRequest, PowerAction, PowerState } from '../bmc-client.js';
import { redfishErrorMessage, redfishRequest, type RedfishHttpOptions, type RedfishResponse } from './redfish-http.js';
import { servicePath } from './redfish-path.js';

export const SERVICE_ROOT = '/redfish/v1';
export const DEFAULT_REDFISH_TIMEOUT_MS = 10_000;

/** Our power actions as ComputerSystem.Reset types (Redfish ResetType enumeration). */
const RESET_TYPES: Readonly<Record<PowerAction, readonly string[]>> = {
  on: ['On'],
  off: ['ForceOff'],
  // PowerCycle where offered; many BMCs list only ForceRestart, which has the same effect for booting.
  cycle: ['PowerCycle', 'ForceRestart'],
  reset: ['ForceRestart'],
  soft: ['GracefulShutdown'],
};

/** Boot source override targets (ComputerSystem.BootSource). */
const BOOT_TARGETS: Readonly<Record<BootDevice, string>> = { pxe: 'Pxe', disk: 'Hdd', cdrom: 'Cd', bios: 'BiosSetup' };

interface SystemResource {
  path: string;
  resetTarget: string;
  allowedResets: readonly string[] | null;
}

/** Longest text we keep from a BMC (vendor, model, versions, error messages); real values are short. */
export const MAX_BMC_TEXT = 256;
/** Longest ETag we echo back in If-Match. */
const MAX_ETAG = 256;

/** A JSON object the BMC must have sent where one is expected; an array, string or null is a protocol error. */
function expectObject(value: unknown, what: string, target: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new BmcError('protocol', `${target}: ${what} is not a JSON object`);
}

/** A member that may be absent: an object, or an empty one for anything else. */
function optionalObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A BMC's text, bounded and without control characters (it is stored and shown). */
export function bmcText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim().slice(0, MAX_BMC_TEXT);
  return clean === '' ? null : clean;
}

const text = bmcText;

/** An ETag fit for an If-Match header (printable ASCII, bounded), else none. */
function usableEtag(value: unknown): string | null {
  return typeof value === 'string' && value.length <= MAX_ETAG && /^[\x21-\x7e]+$/.test(value) ? value : null;
}

/**
 * Power control over Redfish (DMTF DSP0266, schema ComputerSystem): the
 * first member of the Systems collection is the machine we control.
 *
 * Every answer is treated as hostile: objects must be objects, paths taken
 * from the JSON go through servicePath (under /redfish/v1/, bounded,
 * percent-encoded), only the first Systems member is followed, texts are
 * bounded, and `signal` (the caller's deadline for the whole operation)
 * aborts whatever request is in flight.
 */
export class RedfishConnection implements BmcConnection {
  readonly protocol = 'redfish' as const;
  readonly cipherSuite = null;
  readonly description: string;
  private readonly http: RedfishHttpOptions;
  private readonly target: string;
  private readonly system: SystemResource;
  private readonly root: Record<string, unknown>;
  private readonly signal: AbortSignal | undefined;

  private constructor(http: RedfishHttpOptions, target: string, system: SystemResource, root: Record<string, unknown>, signal: AbortSignal | undefined) {
    this.http = http;
    this.target = target;
    this.system = system;
    this.root = root;
    this.signal = signal;
    this.description = `Redfish ${text(root.RedfishVersion) ?? '(version not stated)'}`;
  }

  /** Reads the service root (no credentials needed), then logs in by reading the system. */
  static async connect(target: BmcTarget, timeoutMs = DEFAULT_REDFISH_TIMEOUT_MS, signal?: AbortSignal): Promise<RedfishConnection> {
    const label = `${target.address}:${target.port}`;
    const anonymous: RedfishHttpOptions = { address: target.address, port: target.port, credentials: null, verifyTls: target.verifyTls, timeoutMs };
    const get = async (options: RedfishHttpOptions, path: string, what: string) =>
      expectObject(expectOk(await redfishRequest(options, 'GET', path, undefined, {}, signal), what, label).body, what, label);
    const root = await get(anonymous, SERVICE_ROOT, 'service root');
    if (!('RedfishVersion' in root) && !('Systems' in root)) throw new BmcError('protocol', `${label}: ${SERVICE_ROOT} is not a Redfish service root`);
    const http: RedfishHttpOptions = { ...anonymous, credentials: { username: target.username, password: target.password } };
    const systemsPath = servicePath(optionalObject(root.Systems)['@odata.id'], 'Systems', label);
    const systems = await get(http, systemsPath, 'Systems collection');
    if (systems.Members !== undefined && !Array.isArray(systems.Members)) throw new BmcError('protocol', `${label}: Systems Members is not a JSON array`);
    const members: unknown[] = (systems.Members as unknown[] | undefined) ?? [];
    if (members.length === 0) throw new BmcError('unsupported', `${label}: the Redfish service lists no computer system`);
    // Only the first member is ever followed, however many the BMC lists.
    const path = servicePath(expectObject(members[0], 'Systems member', label)['@odata.id'], 'Systems member', label);
    const resource = await get(http, path, 'computer system');
    const reset = optionalObject(optionalObject(resource.Actions)['#ComputerSystem.Reset']);
    const allowed = reset['ResetType@Redfish.AllowableValues'];
    const system: SystemResource = {
      path,
      resetTarget: reset.target === undefined ? `${path}/Actions/ComputerSystem.Reset` : servicePath(reset.target, 'the Reset action', label),
      allowedResets: Array.isArray(allowed) ? allowed.filter((value): value is string => typeof value === 'string').slice(0, 64) : null,
    };
    return new RedfishConnection(http, label, system, root, signal);
  }

  async identify(): Promise<BmcIdentity> {
    const resource = await this.readSystem();
    return {
      vendor: text(resource.body.Manufacturer) ?? text(this.root.Vendor),
      model: text(resource.body.Model) ?? text(this.root.Product),
      firmware: text(resource.body.BiosVersion),
    };
  }

  async powerState(): Promise<PowerState> {
    const state = text((await this.readSystem()).body.PowerState);
    // PoweringOn/PoweringOff are transitions; report what the machine is still doing.
    if (state === 'On' || state === 'PoweringOff') return 'on';
    if (state === 'Off' || state === 'PoweringOn') return 'off';
    return 'unknown';
  }

  async power(action: PowerAction): Promise<void> {
    const candidates = RESET_TYPES[action];
    const allowed = this.system.allowedResets;
    const resetType = allowed ? candidates.find((type) => allowed.includes(type)) : candidates[0];
    if (!resetType) {
      const offered = allowed && allowed.length > 0 ? allowed.map((value) => text(value) ?? '?').slice(0, 16).join(', ') : 'none';
      throw new BmcError('unsupported', `${this.target}: the system does not offer ${candidates.join(' or ')} (allowed: ${offered})`);
    }
    expectOk(await redfishRequest(this.http, 'POST', this.system.resetTarget, { ResetType: resetType }, {}, this.signal), `ComputerSystem.Reset ${resetType}`, this.target);
  }

  async setBootDevice(request: BootDeviceRequest): Promise<void> {
    const current = await this.readSystem();
    const etag = usableEtag(current.headers.etag);
    const body = {
      Boot: {
        BootSourceOverrideTarget: BOOT_TARGETS[request.device],
        BootSourceOverrideEnabled: request.persistent ? 'Continuous' : 'Once',
        BootSourceOverrideMode: request.efi ? 'UEFI' : 'Legacy',
      },
    };
    // Services that use ETags require If-Match on PATCH (DSP0266 §7.5.2); send it whenever we have one.
    const headers: Record<string, string> = etag ? { 'if-match': etag } : {};
    expectOk(await redfishRequest(this.http, 'PATCH', this.system.path, body, headers, this.signal), 'boot source override', this.target);
  }

  async close(): Promise<void> {
    // Basic authentication keeps no session on the BMC.
  }

  private async readSystem(): Promise<{ body: Record<string, unknown>; headers: RedfishResponse['headers'] }> {
    const response = expectOk(await redfishRequest(this.http, 'GET', this.system.path, undefined, {}, this.signal), 'computer system', this.target);
    return { body: expectObject(response.body, 'computer system', this.target), headers: response.headers };
  }
}

function expectOk(response: RedfishResponse, what: string, target: string): RedfishResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const detail = text(redfishErrorMessage(response.body));
  const suffix = detail ? `: ${detail}` : '';
  if (response.status === 401 || response.status === 403) {
    throw new BmcError('auth_failed', `${target}: authentication failed (HTTP ${response.status} on ${what})${suffix}`);
  }
  if (response.status === 404 || response.status === 405 || response.status === 501) {
    throw new BmcError('unsupported', `${target}: ${what} is not available (HTTP ${response.status})${suffix}`);
  }
  if (response.status >= 300 && response.status < 400) {
    throw new BmcError('protocol', `${target}: ${what} answered with a redirect (HTTP ${response.status}); redirects are not followed`);
  }
  throw new BmcError('command_failed', `${target}: ${what} failed with HTTP ${response.status}${suffix}`);
}

/** True when the address:port answers like a Redfish service root (no credentials needed). */
export async function isRedfishService(address: string, port: number, verifyTls: boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const response = await redfishRequest({ address, port, credentials: null, verifyTls, timeoutMs }, 'GET', SERVICE_ROOT, undefined, {}, signal);
  const body = optionalObject(response.body);
  return response.status === 200 && ('RedfishVersion' in body || 'Systems' in body);
}
