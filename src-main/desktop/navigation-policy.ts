import { APP_HOST, APP_SCHEME } from './renderer-protocol.js';

/** True for pages of our own UI (app://bootwright/…); the only place the window may navigate. */
export function isAppUrl(url: string): boolean {
  try {
    // Compared by parts: outside Chromium (which registers app: as a standard scheme) its origin is opaque.
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/**
 * The URL to hand to the system browser for a link the page tried to open,
 * or null to drop it: only http(s), never file:, javascript:, custom schemes.
 */
export function externalUrlToOpen(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}
