import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { RENDERER_CSP } from '../api/http-app.js';

/**
 * The desktop window loads the web UI from app://bootwright/ rather than
 * file://: the UI's absolute asset URLs (/assets/…) and its client-side
 * routes (/services) then work exactly as in a browser, the page gets a real
 * origin for CSP 'self', and no other local file is reachable (Electron
 * security checklist: "Avoid usage of the file:// protocol").
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'bootwright';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** What a request maps to: a file of the renderer build, the SPA entry, or nothing. */
export type RendererTarget = { kind: 'file'; file: string } | { kind: 'spa' } | { kind: 'not-found' };

/**
 * Maps an app:// URL to a file under `rendererDir`. Paths that escape the
 * directory are refused; extension-less paths are client-side routes and get
 * index.html, like the HTTP server's SPA fallback.
 */
export function resolveRendererTarget(rendererDir: string, url: string): RendererTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'not-found' };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { kind: 'not-found' };
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return { kind: 'not-found' };
  }
  if (pathname.includes('\0')) return { kind: 'not-found' };
  if (pathname === '/' || pathname === '/index.html') return { kind: 'spa' };
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${path.posix.normalize(pathname)}`);
  if (file !== root && !file.startsWith(`${root}${path.sep}`)) return { kind: 'not-found' };
  if (path.extname(pathname) === '') return { kind: 'spa' };
  return { kind: 'file', file };
}

/** The protocol handler for app://bootwright/ (a fetch-style Request → Response function). */
export function createRendererProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const indexFile = path.join(rendererDir, 'index.html');
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('method not allowed\n', { status: 405 });
    const target = resolveRendererTarget(rendererDir, request.url);
    if (target.kind === 'not-found') return notFound();
    const file = target.kind === 'spa' ? indexFile : target.file;
    try {
      if (!(await stat(file)).isFile()) return notFound();
      const body = await readFile(file);
      const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      const headers: Record<string, string> = { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
      if (type.startsWith('text/html')) headers['content-security-policy'] = RENDERER_CSP;
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
    } catch {
      return notFound();
    }
  };
}

function notFound(): Response {
  return new Response('not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
