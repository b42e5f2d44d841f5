import { BrowserWindow } from 'electron';
import type { IpcInvokeEvent } from '../ipc/electron-ipc.js';
import { isAppUrl } from './navigation-policy.js';
import { APP_ORIGIN } from './renderer-protocol.js';

export interface MainWindowOptions {
  preload: string;
  icon: string;
  /** Called when the page starts loading another document (reload): its streams must close. */
  onNewDocument(webContentsId: number): void;
  /** True while the app quits; until then closing the window only hides it (servers keep running). */
  isQuitting(): boolean;
}

/** The one application window: sandboxed, isolated, showing app://bootwright/. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Bootwright',
    icon: options.icon,
    backgroundColor: '#f5f7fa',
    autoHideMenuBar: true,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  const contentsId = window.webContents.id;
  window.once('ready-to-show', () => window.show());
  window.on('close', (event) => {
    if (options.isQuitting()) return;
    event.preventDefault();
    window.hide();
  });
  window.webContents.on('did-start-navigation', (event) => {
    if (event.isMainFrame && !event.isSameDocument) options.onNewDocument(contentsId);
  });
  void window.loadURL(`${APP_ORIGIN}/`);
  return window;
}

/** Shows and focuses the window (tray "Open", a second launch). */
export function revealWindow(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/**
 * IPC is accepted only from this window's top frame while it shows our UI:
 * not from an iframe, not after a navigation elsewhere.
 */
export function isFromWindow(window: BrowserWindow | null, event: IpcInvokeEvent): boolean {
  if (!window || window.isDestroyed() || event.sender !== window.webContents) return false;
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}
