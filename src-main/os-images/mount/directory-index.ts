import type { TreeNode } from '../../core/read-only-tree.js';

/**
 * The page a browser (or an installer that scrapes directory listings, as
 * some do for a repository) gets for a directory of a mounted image: an
 * autoindex like nginx's. Links are absolute (`/boot/iso/<slug>/<dir>/<name>`),
 * so the page works with and without a trailing slash in the address;
 * every name is percent-encoded in links and HTML-escaped in text, so a
 * name inside the image can never become markup.
 */
export function directoryIndex(urlPath: string, entries: readonly TreeNode[]): string {
  const base = urlPath.endsWith('/') ? urlPath : `${urlPath}/`;
  const parent = base.replace(/[^/]+\/$/, '');
  const rows = [...entries]
    .sort((a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || a.name.localeCompare(b.name))
    .map((entry) => {
      const slash = entry.type === 'directory' ? '/' : '';
      const href = `${encodePath(base)}${encodeURIComponent(entry.name)}${slash}`;
      const size = entry.type === 'file' ? String(entry.size) : '-';
      const when = new Date(entry.mtimeMs).toISOString().replace('T', ' ').slice(0, 16);
      return `<a href="${escapeHtml(href)}">${escapeHtml(entry.name + slash)}</a>  ${when}  ${size}`;
    });
  const title = `Index of ${escapeHtml(base)}`;
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${title}</title></head>`,
    `<body><h1>${title}</h1><hr><pre>`,
    `<a href="${escapeHtml(encodePath(parent))}">../</a>`,
    ...rows,
    '</pre><hr></body></html>',
    '',
  ].join('\n');
}

/** Percent-encodes each segment of an absolute URL path, keeping the slashes. */
function encodePath(urlPath: string): string {
  return urlPath.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
