import { app, session, shell, type WebContents } from 'electron';
import { externalUrlToOpen, isAppUrl } from './navigation-policy.js';

function openExternally(url: string): void {
  const external = externalUrlToOpen(url);
  if (external) void shell.openExternal(external);
}

/** The rules every web contents of the app gets: no navigation away, no new windows, no webviews. */
function harden(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    // A plain link to the outside (docs, a BMC web page) opens in the user's browser instead.
    if (event.isMainFrame) openExternally(event.url);
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * App-wide security settings (Electron security checklist): every web
 * contents is hardened as it is created, and the page is granted no
 * permission (camera, notifications, geolocation…): it needs none.
 */
export function installSecurityPolicy(): void {
  app.on('web-contents-created', (_event, contents) => harden(contents));
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}
