import { BmcError } from '../bmc-error.js';
import type { BmcConnection, BmcIdentity, BmcTarget, BootDevice, BootDeviceRequest, PowerAction, PowerState } from '../bmc-client.js';
import { redfishErrorMessage, redfishRequest, type RedfishHttpOptions, type RedfishResponse } from './redfish-http.js';

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

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A same-service path from an @odata.id; anything else (another host, a scheme) is refused. */
function servicePath(value: unknown, what: string, target: string): string {
  const id = text(value);
  if (!id || !id.startsWith('/redfish/v1') || id.includes('..') || /[\s?#]/.test(id)) {
    throw new BmcError('protocol', `${target}: ${what} has no usable @odata.id`);
  }
  return id;
}

/**
 * Power control over Redfish (DMTF DSP0266, schema ComputerSystem): the
 * first member of the Systems collection is the machine we control.
 */
export class RedfishConnection implements BmcConnection {
  readonly protocol = 'redfish' as const;
  readonly cipherSuite = null;
  readonly description: string;
  private readonly http: RedfishHttpOptions;
  private readonly target: string;
  private readonly system: SystemResource;
  private readonly root: Record<string, unknown>;

  private constructor(http: RedfishHttpOptions, target: string, system: SystemResource, root: Record<string, unknown>) {
    this.http = http;
    this.target = target;
    this.system = system;
    this.root = root;
    this.description = `Redfish ${text(root.RedfishVersion) ?? '(version not stated)'}`;
  }

  /** Reads the service root (no credentials needed), then logs in by reading the system. */
  static async connect(target: BmcTarget, timeoutMs = DEFAULT_REDFISH_TIMEOUT_MS): Promise<RedfishConnection> {
    const label = `${target.address}:${target.port}`;
    const anonymous: RedfishHttpOptions = { address: target.address, port: target.port, credentials: null, verifyTls: target.verifyTls, timeoutMs };
    const root = asObject(expectOk(await redfishRequest(anonymous, 'GET', SERVICE_ROOT), 'service root', label).body);
    if (!('RedfishVersion' in root) && !('Systems' in root)) throw new BmcError('protocol', `${label}: ${SERVICE_ROOT} is not a Redfish service root`);
    const http: RedfishHttpOptions = { ...anonymous, credentials: { username: target.username, password: target.password } };
    const systemsPath = servicePath(asObject(root.Systems)['@odata.id'], 'Systems', label);
    const systems = asObject(expectOk(await redfishRequest(http, 'GET', systemsPath), 'Systems collection', label).body);
    const members = Array.isArray(systems.Members) ? systems.Members : [];
    if (members.length === 0) throw new BmcError('unsupported', `${label}: the Redfish service lists no computer system`);
    const path = servicePath(asObject(members[0])['@odata.id'], 'Systems member', label);
    const resource = asObject(expectOk(await redfishRequest(http, 'GET', path), 'computer system', label).body);
    const reset = asObject(asObject(resource.Actions)['#ComputerSystem.Reset']);
    const allowed = reset['ResetType@Redfish.AllowableValues'];
    const system: SystemResource = {
      path,
      resetTarget: reset.target === undefined ? `${path}/Actions/ComputerSystem.Reset` : servicePath(reset.target, 'the Reset action', label),
      allowedResets: Array.isArray(allowed) ? allowed.filter((value): value is string => typeof value === 'string') : null,
    };
    return new RedfishConnection(http, label, system, root);
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
      throw new BmcError('unsupported', `${this.target}: the system does not offer ${candidates.join(' or ')} (allowed: ${allowed?.join(', ') ?? 'none'})`);
    }
    expectOk(await redfishRequest(this.http, 'POST', this.system.resetTarget, { ResetType: resetType }), `ComputerSystem.Reset ${resetType}`, this.target);
  }

  async setBootDevice(request: BootDeviceRequest): Promise<void> {
    const current = await this.readSystem();
    const etag = current.headers.etag;
    const body = {
      Boot: {
        BootSourceOverrideTarget: BOOT_TARGETS[request.device],
        BootSourceOverrideEnabled: request.persistent ? 'Continuous' : 'Once',
        BootSourceOverrideMode: request.efi ? 'UEFI' : 'Legacy',
      },
    };
    // Services that use ETags require If-Match on PATCH (DSP0266 §7.5.2); send it whenever we have one.
    const headers: Record<string, string> = typeof etag === 'string' ? { 'if-match': etag } : {};
    expectOk(await redfishRequest(this.http, 'PATCH', this.system.path, body, headers), 'boot source override', this.target);
  }

  async close(): Promise<void> {
    // Basic authentication keeps no session on the BMC.
  }

  private async readSystem(): Promise<{ body: Record<string, unknown>; headers: RedfishResponse['headers'] }> {
    const response = expectOk(await redfishRequest(this.http, 'GET', this.system.path), 'computer system', this.target);
    return { body: asObject(response.body), headers: response.headers };
  }
}

function expectOk(response: RedfishResponse, what: string, target: string): RedfishResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const detail = redfishErrorMessage(response.body);
  const suffix = detail ? `: ${detail}` : '';
  if (response.status === 401 || response.status === 403) {
    throw new BmcError('auth_failed', `${target}: authentication failed (HTTP ${response.status} on ${what})${suffix}`);
  }
  if (response.status === 404 || response.status === 405 || response.status === 501) {
    throw new BmcError('unsupported', `${target}: ${what} is not available (HTTP ${response.status})${suffix}`);
  }
  throw new BmcError('command_failed', `${target}: ${what} failed with HTTP ${response.status}${suffix}`);
}

/** True when the address:port answers like a Redfish service root (no credentials needed). */
export async function isRedfishService(address: string, port: number, verifyTls: boolean, timeoutMs: number): Promise<boolean> {
  const response = await redfishRequest({ address, port, credentials: null, verifyTls, timeoutMs }, 'GET', SERVICE_ROOT);
  const body = asObject(response.body);
  return response.status === 200 && ('RedfishVersion' in body || 'Systems' in body);
}
