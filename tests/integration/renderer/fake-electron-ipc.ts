import type { IpcInvokeEvent, IpcMainLike, IpcSender } from '../../../src-main/ipc/electron-ipc.js';

type RendererListener = (event: unknown, ...args: unknown[]) => void;
type MainHandler = (event: IpcInvokeEvent, ...args: unknown[]) => unknown;

/** A sender (the window's WebContents) that delivers `send` to the fake renderer side. */
export interface FakeSender extends IpcSender {
  destroy(): void;
}

/**
 * An in-process stand-in for Electron's IPC pair: ipcMain.handle on one side,
 * ipcRenderer.invoke/on on the other. Arguments and results are
 * structured-cloned like Electron does, so anything that would not survive
 * real IPC (an Error's code, a function) fails here too.
 */
export function createFakeElectronIpc(frameUrl = 'app://bootwright/services') {
  const handlers = new Map<string, MainHandler>();
  const rendererListeners = new Map<string, Set<RendererListener>>();
  const destroyedListeners: (() => void)[] = [];
  let destroyed = false;

  const sender: FakeSender = {
    id: 1,
    isDestroyed: () => destroyed,
    send(channel, ...args) {
      const cloned = args.map((arg) => structuredClone(arg));
      // Electron delivers pushes asynchronously, after the current task.
      setTimeout(() => {
        for (const listener of rendererListeners.get(channel) ?? []) listener({}, ...cloned);
      }, 0);
    },
    once(_event, listener) {
      destroyedListeners.push(listener);
    },
    destroy() {
      destroyed = true;
      for (const listener of destroyedListeners.splice(0)) listener();
    },
  };
  const event: IpcInvokeEvent = { sender, senderFrame: { url: frameUrl, parent: null } };

  const ipcMain: IpcMainLike & { handlerCount(): number } = {
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
    handlerCount: () => handlers.size,
  };

  const ipcRenderer = {
    async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(await handler(event, ...args.map((arg) => structuredClone(arg))));
    },
    on(channel: string, listener: RendererListener) {
      const set = rendererListeners.get(channel) ?? new Set();
      set.add(listener);
      rendererListeners.set(channel, set);
    },
  };

  return { ipcMain, ipcRenderer, sender, event };
}

export type FakeElectronIpc = ReturnType<typeof createFakeElectronIpc>;
