import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { findTool, must } from '../../helpers/netns.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/redfish');
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

export const REDFISH_USER = 'root';
export const REDFISH_PASSWORD = 'calvin';

/** A self-signed certificate for 127.0.0.1 made with openssl (as a BMC ships one). */
export async function selfSignedCert(): Promise<{ cert: Buffer; key: Buffer }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bootwright-redfish-cert-'));
  try {
    await must(findTool('openssl')!, [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=idrac-test', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ]);
    return { cert: await readFile(path.join(dir, 'cert.pem')), key: await readFile(path.join(dir, 'key.pem')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface RedfishRequestLog {
  method: string;
  path: string;
  body: unknown;
  ifMatch: string | undefined;
}

/**
 * A small Redfish service on 127.0.0.1 answering with the fixtures (shaped
 * like an iDRAC 9's): the public service root, Basic-authenticated Systems,
 * ComputerSystem.Reset and boot source override PATCH with ETag/If-Match.
 */
export interface RedfishServer {
  port: number;
  powerState: string;
  boot: Record<string, unknown>;
  requests: RedfishRequestLog[];
  /** Replace the allowed reset types (null removes the annotation). */
  allowedResets: string[] | null;
  /** Answer the service root with HTML (not a Redfish service). */
  notRedfish: boolean;
  close(): Promise<void>;
}

export async function startRedfishServer(tls: { cert: Buffer; key: Buffer }): Promise<RedfishServer> {
  const root = fixture('service-root.json');
  const systems = fixture('systems.json');
  const system = fixture('system.json');
  const unauthorized = fixture('error-unauthorized.json');
  const systemPath = '/redfish/v1/Systems/System.Embedded.1';
  const resetPath = `${systemPath}/Actions/ComputerSystem.Reset`;
  let etagCounter = 1;
  const state: RedfishServer = {
    port: 0,
    powerState: String(system.PowerState),
    boot: { ...(system.Boot as Record<string, unknown>) },
    requests: [],
    allowedResets: [...((system.Actions as Record<string, Record<string, string[]>>)['#ComputerSystem.Reset']!['ResetType@Redfish.AllowableValues']!)],
    notRedfish: false,
    close: async () => undefined,
  };

  const server = https.createServer({ cert: tls.cert, key: tls.key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : null;
      const url = request.url ?? '/';
      state.requests.push({ method: request.method ?? '', path: url, body, ifMatch: request.headers['if-match'] });
      const send = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', 'odata-version': '4.0', ...headers });
        response.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      if (request.method === 'GET' && url === '/redfish/v1') {
        if (state.notRedfish) {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html><body>login</body></html>');
          return;
        }
        send(200, root);
        return;
      }
      const expected = `Basic ${Buffer.from(`${REDFISH_USER}:${REDFISH_PASSWORD}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        send(401, unauthorized, { 'www-authenticate': 'Basic realm="RedfishService"' });
        return;
      }
      const etag = `W/"gen-${etagCounter}"`;
      if (request.method === 'GET' && url === '/redfish/v1/Systems') return send(200, systems);
      if (request.method === 'GET' && url === systemPath) {
        const actions = { '#ComputerSystem.Reset': { target: resetPath, ...(state.allowedResets ? { 'ResetType@Redfish.AllowableValues': state.allowedResets } : {}) } };
        return send(200, { ...system, Actions: actions, PowerState: state.powerState, Boot: state.boot }, { etag });
      }
      if (request.method === 'POST' && url === resetPath) {
        const type = (body as { ResetType?: string } | null)?.ResetType ?? '';
        if (state.allowedResets && !state.allowedResets.includes(type)) {
          return send(400, { error: { code: 'Base.1.7.ActionParameterValueNotInList', message: `The value ${type} for the parameter ResetType is not in the list of acceptable values.` } });
        }
        state.powerState = ['ForceOff', 'GracefulShutdown'].includes(type) ? 'Off' : 'On';
        return send(204);
      }
      if (request.method === 'PATCH' && url === systemPath) {
        if (request.headers['if-match'] !== etag) return send(412, { error: { code: 'Base.1.7.PreconditionFailed', message: 'The ETag supplied did not match the ETag required to change this resource.' } });
        etagCounter += 1;
        state.boot = { ...state.boot, ...((body as { Boot?: Record<string, unknown> }).Boot ?? {}) };
        return send(200, { '@Message.ExtendedInfo': [{ Message: 'The request completed successfully.' }] });
      }
      send(404, { error: { code: 'Base.1.7.ResourceMissingAtURI', message: `The resource at the URI ${url} was not found.` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  state.port = typeof address === 'object' && address ? address.port : 0;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
