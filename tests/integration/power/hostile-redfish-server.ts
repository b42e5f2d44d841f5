import https from 'node:https';
import type { ServerResponse } from 'node:http';

/**
 * The ways a hostile (or badly broken) Redfish BMC answers, one per server:
 *
 * - `euro`: the Systems member is `/redfish/v1/Systems/€1` (unescaped
 *   non-ASCII, on which http.request throws); served percent-encoded, so a
 *   client that encodes it works.
 * - `huge`: a 2 MiB Systems collection with its Content-Length.
 * - `endless`: a chunked Systems collection that never stops (no length).
 * - `slowloris`: headers, then one byte every 500 ms, forever.
 * - `not-json`: HTML with status 200.
 * - `deep`: 200 000 nested arrays (parses, but is no object).
 * - `redirect`: 302 to another host.
 * - `wrong-types`: Members is a string.
 * - `traversal`: the member climbs out of the service root with '..'.
 * - `bad-target`: the system's Reset action target is a full URL to another host.
 */
export const HOSTILE_MODES = ['euro', 'huge', 'endless', 'slowloris', 'not-json', 'deep', 'redirect', 'wrong-types', 'traversal', 'bad-target'] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

export interface HostileRedfishServer {
  mode: HostileMode;
  port: number;
  close(): Promise<void>;
}

const ROOT = { '@odata.id': '/redfish/v1', RedfishVersion: '1.11.0', Systems: { '@odata.id': '/redfish/v1/Systems' } };
const SYSTEM = { '@odata.id': '/redfish/v1/Systems/%E2%82%AC1', Manufacturer: 'Hostile Inc.', Model: 'Trap', PowerState: 'On' };

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startHostileRedfish(mode: HostileMode, tls: { cert: Buffer; key: Buffer }): Promise<HostileRedfishServer> {
  const intervals = new Set<NodeJS.Timeout>();
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (request, response) => {
    // The client hangs up on purpose (size caps, time limits); that is no error of this server.
    response.on('error', () => undefined);
    request.on('error', () => undefined);
    const url = request.url ?? '/';
    if (url === '/redfish/v1') return json(response, 200, ROOT);
    if (url === '/redfish/v1/Systems') {
      switch (mode) {
        case 'euro':
        case 'bad-target':
          return json(response, 200, { Members: [{ '@odata.id': '/redfish/v1/Systems/€1' }] });
        case 'huge': {
          const filler = 'x'.repeat(2 * 1024 * 1024);
          const body = JSON.stringify({ Members: [], Filler: filler });
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
          response.end(body);
          return;
        }
        case 'endless': {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('{"Members": [');
          const chunk = `${'{"@odata.id": "/redfish/v1/Systems/1"},'.repeat(1_000)}`;
          // Bounded by the client: it hangs up after 1 MiB; the server stops when the socket goes.
          const pump = () => {
            while (!response.destroyed && response.write(chunk));
            if (!response.destroyed) response.once('drain', pump);
          };
          pump();
          return;
        }
        case 'slowloris': {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('{');
          const interval = setInterval(() => {
            if (response.destroyed) {
              clearInterval(interval);
              intervals.delete(interval);
              return;
            }
            response.write(' ');
          }, 500);
          intervals.add(interval);
          return;
        }
        case 'not-json':
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html><body>{"Members": [</body></html>');
          return;
        case 'deep':
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
          return;
        case 'redirect':
          response.writeHead(302, { location: 'https://192.0.2.1/redfish/v1/Systems' });
          response.end();
          return;
        case 'wrong-types':
          return json(response, 200, { Members: '/redfish/v1/Systems/1' });
        case 'traversal':
          return json(response, 200, { Members: [{ '@odata.id': '/redfish/v1/Systems/../../../etc/passwd' }] });
      }
    }
    if (url === '/redfish/v1/Systems/%E2%82%AC1') {
      if (mode === 'bad-target') {
        return json(response, 200, { ...SYSTEM, Actions: { '#ComputerSystem.Reset': { target: 'https://192.0.2.1/redfish/v1/Systems/1/Actions/ComputerSystem.Reset' } } });
      }
      return json(response, 200, SYSTEM);
    }
    json(response, 404, { error: { code: 'Base.1.7.ResourceMissingAtURI', message: `no ${url}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    mode,
    port: typeof address === 'object' && address ? address.port : 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const interval of intervals) clearInterval(interval);
        intervals.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
