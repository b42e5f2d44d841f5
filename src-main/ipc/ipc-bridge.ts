import { errorBody } from '../api/error-handler.js';
import { IPC_HEADER, type ApiApp } from '../api/http-app.js';
import { API_PREFIX } from '../core/http-kit/route-table.js';

export const IPC_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type IpcMethod = (typeof IPC_METHODS)[number];

/** What the renderer sends over `bootwright:invoke`. */
export interface IpcRequest {
  method: IpcMethod;
  /** Full API path with query string, e.g. /api/v1/hosts?page=2. */
  path: string;
  body?: unknown;
}

/** What it gets back: the HTTP status and the parsed envelope, exactly as over HTTP. */
export interface IpcResponse {
  status: number;
  body: unknown;
}

/**
 * Routes renderer calls through the very same route table as HTTP (fastify
 * inject), so validation, envelopes and errors are identical. Requests carry
 * the per-process secret, which makes them run as the local desktop user.
 */
export class IpcBridge {
  private readonly app: ApiApp;
  private readonly secret: string;

  constructor(app: ApiApp, secret: string) {
    this.app = app;
    this.secret = secret;
  }

  async invoke(request: unknown): Promise<IpcResponse> {
    const checked = checkRequest(request);
    if (typeof checked === 'string') return { status: 400, body: errorBody('BAD_REQUEST', checked) };
    const hasBody = checked.body !== undefined;
    const response = await this.app.inject({
      method: checked.method,
      url: checked.path,
      headers: {
        [IPC_HEADER]: this.secret,
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(hasBody ? { payload: JSON.stringify(checked.body) } : {}),
    });
    const type = String(response.headers['content-type'] ?? '');
    const body: unknown = type.includes('json') && response.body !== '' ? JSON.parse(response.body) : response.body;
    return { status: response.statusCode, body };
  }
}

function checkRequest(request: unknown): IpcRequest | string {
  if (typeof request !== 'object' || request === null) return 'IPC request must be an object {method, path, body?}';
  const { method, path, body } = request as Record<string, unknown>;
  if (typeof method !== 'string' || !(IPC_METHODS as readonly string[]).includes(method)) {
    return `IPC request method must be one of ${IPC_METHODS.join(', ')}`;
  }
  if (typeof path !== 'string' || !path.startsWith(`${API_PREFIX}/`) || path.length > 4096) {
    return `IPC request path must start with ${API_PREFIX}/`;
  }
  return body === undefined ? { method: method as IpcMethod, path } : { method: method as IpcMethod, path, body };
}
