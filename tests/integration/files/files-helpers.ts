import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AppCore } from '../../../src-main/app/app-core.js';
import type { AuditEntry } from '../../../src-main/audit/audit-types.js';
import { bearerHeaders } from '../../helpers/auth.js';

const run = promisify(execFile);

export interface Caller {
  authorization: string;
}

/** Bearer headers for each role (bearer tokens: no CSRF rule, usable from curl). */
export async function callers(core: AppCore): Promise<{ viewer: Caller; operator: Caller; admin: Caller }> {
  return { viewer: await bearerHeaders(core, 'viewer'), operator: await bearerHeaders(core, 'operator'), admin: await bearerHeaders(core, 'admin') };
}

export interface ApiAnswer {
  status: number;
  /** X-Request-Id: finds the request's audit entry. */
  requestId: string;
  json: { success: boolean; data?: unknown; code?: string; error?: string; details?: { field: string; message: string }[] };
}

/** A request over real HTTP; `query` is appended as written (already encoded), so tests control every escape. */
export async function call(base: string, who: Caller, method: string, pathAndQuery: string): Promise<ApiAnswer> {
  const response = await fetch(`${base}/api/v1${pathAndQuery}`, { method, headers: { authorization: who.authorization } });
  const text = await response.text();
  return { status: response.status, requestId: response.headers.get('x-request-id') ?? '', json: text ? (JSON.parse(text) as ApiAnswer['json']) : { success: false } };
}

/**
 * curl's answer to an upload: `-T file` (raw body, POST), `-F file=@…`
 * (multipart) or `--data-binary @file`; the URL's query is passed as written
 * (--path-as-is keeps curl from squashing dot segments).
 */
export async function curlUpload(base: string, who: Caller, pathAndQuery: string, body: { raw?: string; form?: string; data?: string }): Promise<ApiAnswer> {
  const args = ['-sS', '--path-as-is', '-X', 'POST', '-H', `authorization: ${who.authorization}`, '-w', '\n%{http_code} %header{x-request-id}'];
  if (body.raw) args.push('-T', body.raw);
  if (body.form) args.push('-F', `file=@${body.form}`);
  if (body.data) args.push('-H', 'content-type: application/octet-stream', '--data-binary', `@${body.data}`);
  args.push(`${base}/api/v1${pathAndQuery}`);
  const { stdout } = await run('curl', args, { maxBuffer: 4 * 1024 * 1024 });
  const cut = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, cut);
  const [status = '', requestId = ''] = stdout.slice(cut + 1).split(' ');
  return { status: Number(status), requestId, json: text ? (JSON.parse(text) as ApiAnswer['json']) : { success: false } };
}

/** The audit entry of a request (recorded right after its response went out: waited for, a bounded number of times). */
export async function auditEntryOf(core: AppCore, requestId: string): Promise<AuditEntry | undefined> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = core.kernel.audit.all().find((entry) => entry.request_id === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}
