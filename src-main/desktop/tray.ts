import { Menu, Tray, nativeImage } from 'electron';

export interface TrayActions {
  open(): void;
  openInBrowser(url?: string): void;
  quit(): void;
}

/**
 * The tray icon: the app keeps serving with its window closed, so this is how
 * to get back or quit. It lists the web UI's LAN URLs (what another machine
 * types); call the returned `update` when the interfaces change.
 */
export function createTray(iconFile: string, actions: TrayActions, lanUrls: () => string[]): { tray: Tray; update: () => void } {
  const tray = new Tray(nativeImage.createFromPath(iconFile));
  let last: string | null = null;
  const update = () => {
    const urls = lanUrls();
    const key = urls.join(' ');
    if (key === last) return;
    last = key;
    tray.setToolTip(urls.length > 0 ? `Bootwright — ${urls.join(', ')}` : 'Bootwright — no served interface has an address yet');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open', click: () => actions.open() },
        { label: 'Open web UI in browser', click: () => actions.openInBrowser() },
        { type: 'separator' },
        ...(urls.length > 0
          ? urls.map((url) => ({ label: `On the LAN: ${url}`, click: () => actions.openInBrowser(url) }))
          : [{ label: 'On the LAN: no link or address yet', enabled: false }]),
        { type: 'separator' },
        { label: 'Quit', click: () => actions.quit() },
      ]),
    );
  };
  update();
  tray.on('click', () => actions.open());
  return { tray, update };
}
