/**
 * The preload of the Bootwright window. It runs sandboxed (CommonJS, only
 * `require('electron')`), and hands the page one small named API through the
 * context bridge: never ipcRenderer itself, so the page can reach no channel
 * but these.
 */
import { contextBridge, ipcRenderer } from 'electron';

/** The IPC channels; src-main/ipc/electron-ipc.ts declares the same names (a test keeps them equal). */
export const CHANNELS = {
  invoke: 'bootwright:invoke',
  streamOpen: 'bootwright:stream:open',
  streamClose: 'bootwright:stream:close',
  streamMessage: 'bootwright:stream:message',
  requestStreamOpen: 'bootwright:request-stream:open',
  requestStreamText: 'bootwright:request-stream:text',
} as const;

export type InvokeMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The answer of `invoke`: HTTP status and the parsed envelope, exactly as over HTTP. */
export interface InvokeResponse {
  status: number;
  body: unknown;
}

export type StreamName = 'events' | 'logs';

/** The stream's filters, as the SSE endpoint's query parameters (`last_event_id` replays). */
export type StreamParams = Record<string, string | number>;

export interface StreamMessage {
  id?: number;
  event: string;
  data: unknown;
}

/** An error carried as data: Electron would forward only an Error's message. */
export interface IpcErrorData {
  status: number;
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

type StreamOpenResult = { ok: true; subscription: string } | { ok: false; error: IpcErrorData };

interface StreamEnvelope {
  subscription: string;
  message: StreamMessage;
}

type RequestStreamOpenResult = { ok: true; subscription: string } | { ok: false; response: InvokeResponse };

/** A piece of a request stream's event-stream text, or its end. */
interface RequestStreamText {
  subscription: string;
  text?: string;
  end?: boolean;
}

/** Messages that may arrive before `stream:open` has answered with their subscription id. */
const EARLY_LIMIT = 256;
const listeners = new Map<string, (message: StreamMessage) => void>();
const early = new Map<string, StreamMessage[]>();
let earlyCount = 0;
let pendingOpens = 0;

ipcRenderer.on(CHANNELS.streamMessage, (_event, payload: StreamEnvelope) => {
  if (typeof payload !== 'object' || payload === null || typeof payload.subscription !== 'string') return;
  const listener = listeners.get(payload.subscription);
  if (listener) {
    listener(payload.message);
    return;
  }
  // The main process may push before the open call's answer is here; keep a bounded few.
  if (pendingOpens === 0 || earlyCount >= EARLY_LIMIT) return;
  const queue = early.get(payload.subscription) ?? [];
  queue.push(payload.message);
  early.set(payload.subscription, queue);
  earlyCount += 1;
});

/** Request streams: the same early-arrival problem, with their own bounded buffer. */
const textListeners = new Map<string, (payload: RequestStreamText) => void>();
const earlyText = new Map<string, RequestStreamText[]>();
let earlyTextCount = 0;
let pendingRequestStreams = 0;

ipcRenderer.on(CHANNELS.requestStreamText, (_event, payload: RequestStreamText) => {
  if (typeof payload !== 'object' || payload === null || typeof payload.subscription !== 'string') return;
  const listener = textListeners.get(payload.subscription);
  if (listener) {
    listener(payload);
    return;
  }
  if (pendingRequestStreams === 0 || earlyTextCount >= EARLY_LIMIT) return;
  const queue = earlyText.get(payload.subscription) ?? [];
  queue.push(payload);
  earlyText.set(payload.subscription, queue);
  earlyTextCount += 1;
});

function ipcFailure(err: unknown): IpcErrorData {
  return { status: 0, code: 'BAD_RESPONSE', message: `IPC call failed: ${err instanceof Error ? err.message : String(err)}` };
}

const api = {
  /** One API request through the main process's route table; runs as the local desktop admin. */
  invoke(method: InvokeMethod, path: string, body?: unknown): Promise<InvokeResponse> {
    return ipcRenderer.invoke(CHANNELS.invoke, body === undefined ? { method, path } : { method, path, body }) as Promise<InvokeResponse>;
  },

  /** Opens a live stream (events or logs); returns the function that closes it. */
  subscribe(
    stream: StreamName,
    params: StreamParams | undefined,
    onMessage: (message: StreamMessage) => void,
    onError?: (error: IpcErrorData) => void,
  ): () => void {
    let closed = false;
    let subscription: string | null = null;
    pendingOpens += 1;
    const request = params === undefined ? { stream } : { stream, params };
    (ipcRenderer.invoke(CHANNELS.streamOpen, request) as Promise<StreamOpenResult>)
      .then(
        (result) => {
          if (!result.ok) {
            onError?.(result.error);
            return;
          }
          subscription = result.subscription;
          if (closed) {
            void ipcRenderer.invoke(CHANNELS.streamClose, subscription);
            return;
          }
          listeners.set(subscription, onMessage);
          for (const message of early.get(subscription) ?? []) onMessage(message);
        },
        (err: unknown) => onError?.(ipcFailure(err)),
      )
      .finally(() => {
        pendingOpens -= 1;
        if (subscription !== null) {
          earlyCount -= early.get(subscription)?.length ?? 0;
          early.delete(subscription);
        }
        if (pendingOpens === 0) {
          early.clear();
          earlyCount = 0;
        }
      });
    return () => {
      if (closed) return;
      closed = true;
      if (subscription !== null) {
        listeners.delete(subscription);
        void ipcRenderer.invoke(CHANNELS.streamClose, subscription);
      }
    };
  },

  /**
   * Opens a one-shot POST stream (e.g. /api/v1/network/ping/stream) through
   * the main process's route table: `onText` gets the response's
   * event-stream text as the route writes it, `onEnd` its end; a refusal
   * (400, 429…) comes whole to `onRefused`. The returned function stops it,
   * which the route sees as its client going away.
   */
  requestStream(
    path: string,
    body: unknown,
    onText: (text: string) => void,
    onEnd: () => void,
    onRefused: (response: InvokeResponse) => void,
  ): () => void {
    let closed = false;
    let subscription: string | null = null;
    pendingRequestStreams += 1;
    const deliver = (payload: RequestStreamText) => {
      if (closed) return;
      if (typeof payload.text === 'string') onText(payload.text);
      if (payload.end === true && subscription !== null) {
        textListeners.delete(subscription);
        onEnd();
      }
    };
    (ipcRenderer.invoke(CHANNELS.requestStreamOpen, { method: 'POST', path, body }) as Promise<RequestStreamOpenResult>)
      .then(
        (result) => {
          if (!result.ok) {
            if (!closed) onRefused(result.response);
            return;
          }
          subscription = result.subscription;
          if (closed) {
            void ipcRenderer.invoke(CHANNELS.streamClose, subscription);
            return;
          }
          textListeners.set(subscription, deliver);
          for (const payload of earlyText.get(subscription) ?? []) deliver(payload);
        },
        (err: unknown) => {
          const failure = ipcFailure(err);
          if (!closed) onRefused({ status: 0, body: { success: false, error: failure.message, code: failure.code } });
        },
      )
      .finally(() => {
        pendingRequestStreams -= 1;
        if (subscription !== null) {
          earlyTextCount -= earlyText.get(subscription)?.length ?? 0;
          earlyText.delete(subscription);
        }
        if (pendingRequestStreams === 0) {
          earlyText.clear();
          earlyTextCount = 0;
        }
      });
    return () => {
      if (closed) return;
      closed = true;
      if (subscription !== null) {
        textListeners.delete(subscription);
        void ipcRenderer.invoke(CHANNELS.streamClose, subscription);
      }
    };
  },

  /** Where the page runs (shown in the UI's about line; also tells the page it is inside the desktop app). */
  platform: {
    os: process.platform,
    electron: process.versions.electron ?? '',
    chrome: process.versions.chrome ?? '',
  },
};

/** The type of `window.bootwright`, derived from this implementation. */
export type BootwrightApi = typeof api;

contextBridge.exposeInMainWorld('bootwright', api);
