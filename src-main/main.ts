/**
 * Desktop entry (Electron main process). Kept to the shell: single instance,
 * configuration, the core, IPC registration, window and tray. Everything the
 * app does lives in the core, which the headless entry (serve.ts) shares.
 */
import path from 'node:path';
import { app, dialog, ipcMain, protocol, shell, type BrowserWindow, type Tray } from 'electron';
import { AppCore } from './app/app-core.js';
import { loadConfig } from './core/config.js';
import { errorMessage } from './core/errors.js';
import { PROJECT_ROOT, defaultRendererDir } from './core/version.js';
import { desktopConfigArgs } from './desktop/desktop-args.js';
import { createMainWindow, isFromWindow, revealWindow } from './desktop/main-window.js';
import { APP_SCHEME, createRendererProtocolHandler } from './desktop/renderer-protocol.js';
import { installSecurityPolicy } from './desktop/security.js';
import { createTray } from './desktop/tray.js';
import { registerElectronIpc, type ElectronIpc } from './ipc/electron-ipc.js';

// Must precede 'ready': app:// behaves like https (standard URL parsing, secure context, fetch).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

let core: AppCore | null = null;
let electronIpc: ElectronIpc | null = null;
let mainWindow: BrowserWindow | null = null;
/** Held for the app's lifetime: a tray icon that is garbage-collected vanishes. */
let tray: Tray | null = null;
let quitting = false;
let stopped: Promise<void> | null = null;
let readyToExit = false;

const iconDir = () => (app.isPackaged ? path.join(process.resourcesPath, 'icons') : path.join(PROJECT_ROOT, 'resources', 'icons'));

/** Stops the servers and flushes the store, once, whoever asks first. */
function stopCore(): Promise<void> {
  stopped ??= (async () => {
    electronIpc?.dispose();
    // The icon goes with the servers: a tray left after them would offer a window onto nothing.
    tray?.destroy();
    tray = null;
    try {
      await core?.stop();
    } catch (err) {
      core?.kernel.log.error(`stopping failed: ${errorMessage(err)}`);
    }
  })();
  return stopped;
}

async function start(): Promise<void> {
  const config = loadConfig({
    argv: desktopConfigArgs(process.argv.slice(1)),
    env: process.env,
    defaultDataDir: app.getPath('userData'),
  });
  if (!config) {
    app.quit();
    return;
  }
  core = await AppCore.create({ config, electronVersion: process.versions.electron ?? null, consoleLog: false });
  await core.start();
  const started = core;

  installSecurityPolicy();
  protocol.handle(APP_SCHEME, createRendererProtocolHandler(defaultRendererDir()));
  electronIpc = registerElectronIpc({
    ipcMain,
    core: started,
    isTrustedSender: (event) => isFromWindow(mainWindow, event),
    log: started.kernel.log,
  });
  mainWindow = createMainWindow({
    preload: path.join(PROJECT_ROOT, 'dist', 'preload', 'preload.cjs'),
    icon: path.join(iconDir(), '512x512.png'),
    onNewDocument: (id) => electronIpc?.closeStreamsOf(id),
    isQuitting: () => quitting,
  });
  const window = mainWindow;
  const trayParts = createTray(
    path.join(iconDir(), 'tray.png'),
    {
      open: () => revealWindow(window),
      openInBrowser: (url) => void shell.openExternal(url ?? started.url()),
      quit: () => app.quit(),
    },
    () => started.lanUrls(),
  );
  tray = trayParts.tray;
  // A cable plugged in after start gives the LAN URL its address: the menu follows.
  started.kernel.network.onChange(trayParts.update);
  const urls = started.lanUrls();
  started.kernel.log.info(`desktop app ready; web UI and API at ${started.url()}${urls.length > 0 ? `, on the LAN ${urls.join(', ')}` : ''} (data in ${config.dataDir})`);
}

async function failStartup(err: unknown): Promise<void> {
  const message = errorMessage(err);
  if (core) core.kernel.log.error(`startup failed: ${message}`);
  process.stderr.write(`bootwright: startup failed: ${message}\n`);
  dialog.showErrorBox('Bootwright could not start', message);
  await stopCore();
  app.exit(1);
}

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the ports and the data directory; it shows its window (below).
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) revealWindow(mainWindow);
  });
  // The servers keep running with every window closed; only Quit ends the app.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    quitting = true;
    if (readyToExit) return;
    // Hold the quit until the servers have stopped and the store is flushed, then quit for real.
    event.preventDefault();
    void stopCore().finally(() => {
      readyToExit = true;
      app.quit();
    });
  });
  process.on('SIGTERM', () => app.quit());
  process.on('SIGINT', () => app.quit());
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => failStartup(err).catch(() => app.exit(1)));
}
