import { errorBody } from '../api/error-handler.js';
import { AppError, errorMessage, isAppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { IpcBridge, IpcResponse } from './ipc-bridge.js';
import type { StreamHub, StreamMessage } from './stream-hub.js';

/** The IPC channels; src-preload/preload.cts declares the same names (a test keeps them equal). */
export const IPC_CHANNELS = {
  /** invoke: {method, path, body?} → {status, body} (the REST envelope). */
  invoke: 'bootwright:invoke',
  /** invoke: {stream, params?, last_event_id?} → StreamOpenResult. */
  streamOpen: 'bootwright:stream:open',
  /** invoke: subscription id → {ok: true}. */
  streamClose: 'bootwright:stream:close',
  /** main → renderer: {subscription, message}. */
  streamMessage: 'bootwright:stream:message',
  /** invoke: {method: 'POST', path, body?} → RequestStreamOpenResult (a one-shot POST stream; closed with streamClose). */
  requestStreamOpen: 'bootwright:request-stream:open',
  /** main → renderer: {subscription, text} (event-stream text as written), then {subscription, end: true}. */
  requestStreamText: 'bootwright:request-stream:text',
} as const;

/** At most this many live streams per window (a page opens one or two). */
export const MAX_STREAMS_PER_SENDER = 16;

/** An error as data: Electron forwards only an Error's message across IPC. */
export interface IpcErrorData {
  status: number;
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

export type StreamOpenResult = { ok: true; subscription: string } | { ok: false; error: IpcErrorData };

/** A request stream started (its text follows on requestStreamText), or the route's whole answer (a refusal: 400, 429…). */
export type RequestStreamOpenResult = { ok: true; subscription: string } | { ok: false; response: IpcResponse };

/** What main pushes on requestStreamText. */
export type RequestStreamText = { subscription: string; text: string } | { subscription: string; end: true };

/** The part of a WebContents the IPC layer uses (Electron's WebContents fits it). */
export interface IpcSender {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
  once(event: 'destroyed', listener: () => void): unknown;
}

/** The part of an IpcMainInvokeEvent the IPC layer uses. */
export interface IpcInvokeEvent {
  readonly sender: IpcSender;
  /** The frame that sent it; `parent` is null for a top frame. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

/** The part of Electron's ipcMain used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface ElectronIpcDeps {
  ipcMain: IpcMainLike;
  core: { ipc: Pick<IpcBridge, 'invoke' | 'stream'>; streams: StreamHub };
  /** Whether the call comes from our own window's main frame showing our UI. */
  isTrustedSender(event: IpcInvokeEvent): boolean;
  log: Logger;
}

export interface ElectronIpc {
  /** Closes every stream of one window (it reloaded or navigated). */
  closeStreamsOf(senderId: number): void;
  /** Removes the handlers and closes all streams (app quit). */
  dispose(): void;
}

function toErrorData(err: unknown): IpcErrorData {
  if (isAppError(err)) {
    return { status: err.status, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  }
  return { status: 500, code: 'INTERNAL', message: `internal error: ${errorMessage(err)}` };
}

const UNTRUSTED = new AppError('FORBIDDEN', 'IPC call refused: it did not come from the Bootwright window');

/**
 * Wires the renderer's IPC channels to the core: requests into the IPC
 * bridge (the HTTP route table, as the local admin), streams into the stream
 * hub. Everything crosses as data; nothing throws into Electron.
 */
export function registerElectronIpc(deps: ElectronIpcDeps): ElectronIpc {
  const { ipcMain, core, isTrustedSender } = deps;
  const log = deps.log.scope('ipc');
  /** sender id → subscription id → close function. */
  const streams = new Map<number, Map<string, () => void>>();
  let nextSubscription = 1;

  const closeStreamsOf = (senderId: number) => {
    const owned = streams.get(senderId);
    if (!owned) return;
    streams.delete(senderId);
    for (const close of owned.values()) close();
  };

  ipcMain.handle(IPC_CHANNELS.invoke, async (event, request): Promise<IpcResponse> => {
    if (!isTrustedSender(event)) return { status: UNTRUSTED.status, body: errorBody(UNTRUSTED.code, UNTRUSTED.message) };
    try {
      return await core.ipc.invoke(request);
    } catch (err) {
      log.error(`IPC request failed: ${errorMessage(err)}`, { error: err });
      return { status: 500, body: errorBody('INTERNAL', 'internal error; the log has details') };
    }
  });

  const tooMany = (sender: IpcSender) => (streams.get(sender.id)?.size ?? 0) >= MAX_STREAMS_PER_SENDER;
  const TOO_MANY = new AppError('BAD_REQUEST', `a window may hold at most ${MAX_STREAMS_PER_SENDER} live streams`);
  const own = (sender: IpcSender, subscription: string, close: () => void) => {
    let owned = streams.get(sender.id);
    if (!owned) {
      owned = new Map();
      streams.set(sender.id, owned);
      sender.once('destroyed', () => closeStreamsOf(sender.id));
    }
    owned.set(subscription, close);
  };

  ipcMain.handle(IPC_CHANNELS.streamOpen, (event, request): StreamOpenResult => {
    if (!isTrustedSender(event)) return { ok: false, error: toErrorData(UNTRUSTED) };
    const sender = event.sender;
    if (tooMany(sender)) return { ok: false, error: toErrorData(TOO_MANY) };
    const subscription = `s${nextSubscription++}`;
    const send = (message: StreamMessage) => {
      if (!sender.isDestroyed()) sender.send(IPC_CHANNELS.streamMessage, { subscription, message });
    };
    let close: () => void;
    try {
      close = core.streams.subscribe(request, send);
    } catch (err) {
      return { ok: false, error: toErrorData(err) };
    }
    own(sender, subscription, close);
    return { ok: true, subscription };
  });

  ipcMain.handle(IPC_CHANNELS.requestStreamOpen, async (event, request): Promise<RequestStreamOpenResult> => {
    if (!isTrustedSender(event)) return { ok: false, response: { status: UNTRUSTED.status, body: errorBody(UNTRUSTED.code, UNTRUSTED.message) } };
    const sender = event.sender;
    if (tooMany(sender)) return { ok: false, response: { status: TOO_MANY.status, body: errorBody(TOO_MANY.code, TOO_MANY.message) } };
    const subscription = `s${nextSubscription++}`;
    const push = (payload: RequestStreamText) => {
      if (!sender.isDestroyed()) sender.send(IPC_CHANNELS.requestStreamText, payload);
    };
    let opened;
    let ended = false;
    try {
      opened = await core.ipc.stream(request, {
        onText: (text) => push({ subscription, text }),
        onEnd: () => {
          ended = true;
          streams.get(sender.id)?.delete(subscription);
          push({ subscription, end: true });
        },
      });
    } catch (err) {
      log.error(`IPC request stream failed: ${errorMessage(err)}`, { error: err });
      return { ok: false, response: { status: 500, body: errorBody('INTERNAL', 'internal error; the log has details') } };
    }
    if (!opened.ok) return { ok: false, response: opened.response };
    // The window may have gone while the route started; nobody would close the run then.
    if (sender.isDestroyed()) {
      opened.close();
      return { ok: true, subscription };
    }
    if (!ended) own(sender, subscription, opened.close);
    return { ok: true, subscription };
  });

  ipcMain.handle(IPC_CHANNELS.streamClose, (event, subscription): { ok: true } | { ok: false; error: IpcErrorData } => {
    if (!isTrustedSender(event)) return { ok: false, error: toErrorData(UNTRUSTED) };
    const owned = streams.get(event.sender.id);
    // Only the window that opened a stream can close it; unknown ids are already closed.
    const close = typeof subscription === 'string' ? owned?.get(subscription) : undefined;
    if (close) {
      owned!.delete(subscription as string);
      close();
    }
    return { ok: true };
  });

  return {
    closeStreamsOf,
    dispose() {
      for (const channel of [IPC_CHANNELS.invoke, IPC_CHANNELS.streamOpen, IPC_CHANNELS.requestStreamOpen, IPC_CHANNELS.streamClose]) ipcMain.removeHandler(channel);
      for (const senderId of [...streams.keys()]) closeStreamsOf(senderId);
    },
  };
}
