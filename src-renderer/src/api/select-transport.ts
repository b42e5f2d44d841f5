import type { BootwrightApi } from '../../../src-preload/preload.cjs';
import { createHttpTransport } from './http-transport.js';
import { createIpcTransport } from './ipc-transport.js';
import type { Transport } from './transport.js';

/** What the page can see of its host: the preload bridge exists only inside the desktop app. */
export interface TransportHost {
  bootwright?: BootwrightApi | undefined;
}

/** IPC inside Electron (the preload exposed `window.bootwright`), HTTP to the page's own origin in a browser. */
export function selectTransport(host: TransportHost): Transport {
  return host.bootwright ? createIpcTransport(host.bootwright) : createHttpTransport();
}
