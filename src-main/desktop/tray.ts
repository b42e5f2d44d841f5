import { Menu, Tray, nativeImage } from 'electron';

export interface TrayActions {
  open(): void;
  openInBrowser(): void;
  quit(): void;
}

/** The tray icon: the app keeps serving with its window closed, so this is how to get back or quit. */
export function createTray(iconFile: string, actions: TrayActions): Tray {
  const tray = new Tray(nativeImage.createFromPath(iconFile));
  tray.setToolTip('Bootwright');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open', click: () => actions.open() },
      { label: 'Open web UI in browser', click: () => actions.openInBrowser() },
      { type: 'separator' },
      { label: 'Quit', click: () => actions.quit() },
    ]),
  );
  tray.on('click', () => actions.open());
  return tray;
}
