import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { LogSink } from '../../../src-main/core/logger.js';
import { IPC_CHANNELS, MAX_STREAMS_PER_SENDER, registerElectronIpc, type IpcInvokeEvent } from '../../../src-main/ipc/electron-ipc.js';
import type { IpcResponse, IpcStreamHandlers, IpcStreamOpen } from '../../../src-main/ipc/ipc-bridge.js';
import type { StreamHub, StreamMessage } from '../../../src-main/ipc/stream-hub.js';
import { createFakeElectronIpc } from '../../integration/renderer/fake-electron-ipc.js';
import { loadPreload } from '../../integration/renderer/load-preload.js';

const log = new LogSink({ logDir: null, level: 'error', console: false }).logger('test');

/** A stream hub whose subscriptions the test can see and drive. */
function fakeHub() {
  const open = new Map<number, (message: StreamMessage) => void>();
  let next = 0;
  const hub: StreamHub = {
    subscribe(request, send) {
      const stream = (request as { stream?: unknown }).stream;
      if (stream !== 'events') throw new AppError('BAD_REQUEST', `unknown stream "${String(stream)}"`, { details: [{ field: 'stream', message: 'unknown' }] });
      const id = (next += 1);
      open.set(id, send);
      return () => open.delete(id);
    },
  };
  return { hub, open, push: (message: StreamMessage) => [...open.values()].forEach((send) => send(message)) };
}

/** An IPC bridge's `stream` the test drives: refuse with a response, or open and push text / end. */
function fakeRequestStreams() {
  const open: { handlers: IpcStreamHandlers; closed: boolean }[] = [];
  let refusal: IpcResponse | null = null;
  const stream = vi.fn(async (_request: unknown, handlers: IpcStreamHandlers): Promise<IpcStreamOpen> => {
    if (refusal) return { ok: false, response: refusal };
    const entry = { handlers, closed: false };
    open.push(entry);
    return { ok: true, close: () => (entry.closed = true) };
  });
  return { stream, open, refuseWith: (response: IpcResponse | null) => (refusal = response) };
}

function setup(options: { trusted?: (event: IpcInvokeEvent) => boolean; invoke?: (request: unknown) => Promise<{ status: number; body: unknown }> } = {}) {
  const ipc = createFakeElectronIpc();
  const streams = fakeHub();
  const requestStreams = fakeRequestStreams();
  const invoke = vi.fn(options.invoke ?? (async () => ({ status: 200, body: { success: true, data: 'ok' } })));
  const electronIpc = registerElectronIpc({
    ipcMain: ipc.ipcMain,
    core: { ipc: { invoke, stream: requestStreams.stream }, streams: streams.hub },
    isTrustedSender: options.trusted ?? (() => true),
    log,
  });
  return { ipc, streams, requestStreams, invoke, electronIpc, call: (channel: string, ...args: unknown[]) => ipc.ipcRenderer.invoke(channel, ...args) };
}

describe('registerElectronIpc', () => {
  it('declares the same channel names as the preload', () => {
    const { exports } = loadPreload(createFakeElectronIpc());
    expect(exports.CHANNELS).toEqual(IPC_CHANNELS);
  });

  it('passes requests to the core IPC bridge and returns its answer', async () => {
    const { call, invoke } = setup();
    await expect(call(IPC_CHANNELS.invoke, { method: 'GET', path: '/api/v1/services' })).resolves.toEqual({ status: 200, body: { success: true, data: 'ok' } });
    expect(invoke).toHaveBeenCalledWith({ method: 'GET', path: '/api/v1/services' });
  });

  it('answers a crashed handler with a 500 envelope instead of throwing into Electron', async () => {
    const { call } = setup({ invoke: async () => Promise.reject(new Error('boom')) });
    await expect(call(IPC_CHANNELS.invoke, { method: 'GET', path: '/api/v1/x' })).resolves.toEqual({
      status: 500,
      body: { success: false, error: 'internal error; the log has details', code: 'INTERNAL' },
    });
  });

  it('refuses every channel to a sender that is not our window', async () => {
    const { call, invoke, streams } = setup({ trusted: () => false });
    await expect(call(IPC_CHANNELS.invoke, { method: 'GET', path: '/api/v1/services' })).resolves.toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    await expect(call(IPC_CHANNELS.streamOpen, { stream: 'events' })).resolves.toMatchObject({ ok: false, error: { status: 403, code: 'FORBIDDEN' } });
    await expect(call(IPC_CHANNELS.streamClose, 's1')).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await expect(call(IPC_CHANNELS.requestStreamOpen, { method: 'POST', path: '/api/v1/network/ping/stream' })).resolves.toMatchObject({
      ok: false,
      response: { status: 403, body: { code: 'FORBIDDEN' } },
    });
    expect(invoke).not.toHaveBeenCalled();
    expect(streams.open.size).toBe(0);
  });

  it('opens a stream, pushes its messages to the sender and closes it', async () => {
    const { call, ipc, streams } = setup();
    const received: unknown[] = [];
    ipc.ipcRenderer.on(IPC_CHANNELS.streamMessage, (_event, payload) => received.push(payload));
    const opened = (await call(IPC_CHANNELS.streamOpen, { stream: 'events' })) as { ok: true; subscription: string };
    expect(opened).toEqual({ ok: true, subscription: expect.any(String) });
    streams.push({ id: 7, event: 'service.started', data: { id: 7 } });
    await vi.waitFor(() => expect(received).toEqual([{ subscription: opened.subscription, message: { id: 7, event: 'service.started', data: { id: 7 } } }]));
    await expect(call(IPC_CHANNELS.streamClose, opened.subscription)).resolves.toEqual({ ok: true });
    expect(streams.open.size).toBe(0);
    // Closing again (or an unknown id) is harmless.
    await expect(call(IPC_CHANNELS.streamClose, opened.subscription)).resolves.toEqual({ ok: true });
  });

  it('opens a request stream, pushes its text and end to the sender, and stops it on close', async () => {
    const { call, ipc, requestStreams } = setup();
    const received: unknown[] = [];
    ipc.ipcRenderer.on(IPC_CHANNELS.requestStreamText, (_event, payload) => received.push(payload));
    const request = { method: 'POST', path: '/api/v1/network/ping/stream', body: { target: '127.0.0.1' } };
    const opened = (await call(IPC_CHANNELS.requestStreamOpen, request)) as { ok: true; subscription: string };
    expect(opened).toEqual({ ok: true, subscription: expect.any(String) });
    expect(requestStreams.stream).toHaveBeenCalledWith(request, expect.anything());
    const [first] = requestStreams.open;
    first!.handlers.onText('event: row\n');
    first!.handlers.onEnd();
    await vi.waitFor(() => expect(received).toEqual([{ subscription: opened.subscription, text: 'event: row\n' }, { subscription: opened.subscription, end: true }]));

    const second = (await call(IPC_CHANNELS.requestStreamOpen, request)) as { ok: true; subscription: string };
    await call(IPC_CHANNELS.streamClose, second.subscription);
    expect(requestStreams.open.map((entry) => entry.closed)).toEqual([false, true]);
  });

  it('answers a refused request stream with the route\'s whole response, and closes open ones with the window', async () => {
    const { call, ipc, requestStreams } = setup();
    const request = { method: 'POST', path: '/api/v1/network/ping/stream', body: {} };
    await call(IPC_CHANNELS.requestStreamOpen, request);
    ipc.sender.destroy();
    expect(requestStreams.open[0]?.closed).toBe(true);
    requestStreams.refuseWith({ status: 429, body: { success: false, error: 'busy', code: 'RATE_LIMITED' } });
    await expect(call(IPC_CHANNELS.requestStreamOpen, request)).resolves.toEqual({ ok: false, response: { status: 429, body: { success: false, error: 'busy', code: 'RATE_LIMITED' } } });
  });

  it('carries a refused stream as error data, details included', async () => {
    const { call } = setup();
    await expect(call(IPC_CHANNELS.streamOpen, { stream: 'nope' })).resolves.toEqual({
      ok: false,
      error: { status: 400, code: 'BAD_REQUEST', message: 'unknown stream "nope"', details: [{ field: 'stream', message: 'unknown' }] },
    });
  });

  it(`limits a window to ${MAX_STREAMS_PER_SENDER} live streams`, async () => {
    const { call, streams } = setup();
    for (let i = 0; i < MAX_STREAMS_PER_SENDER; i += 1) {
      await expect(call(IPC_CHANNELS.streamOpen, { stream: 'events' })).resolves.toMatchObject({ ok: true });
    }
    await expect(call(IPC_CHANNELS.streamOpen, { stream: 'events' })).resolves.toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(streams.open.size).toBe(MAX_STREAMS_PER_SENDER);
  });

  it('closes all streams of a window when it is destroyed or loads a new document', async () => {
    const { call, ipc, streams, electronIpc } = setup();
    await call(IPC_CHANNELS.streamOpen, { stream: 'events' });
    await call(IPC_CHANNELS.streamOpen, { stream: 'events' });
    electronIpc.closeStreamsOf(ipc.sender.id);
    expect(streams.open.size).toBe(0);
    await call(IPC_CHANNELS.streamOpen, { stream: 'events' });
    ipc.sender.destroy();
    expect(streams.open.size).toBe(0);
  });

  it('does not send to a destroyed window', async () => {
    const { call, ipc, streams } = setup();
    const send = vi.spyOn(ipc.sender, 'send');
    await call(IPC_CHANNELS.streamOpen, { stream: 'events' });
    const [deliver] = [...streams.open.values()];
    vi.spyOn(ipc.sender, 'isDestroyed').mockReturnValue(true);
    deliver!({ event: 'late', data: null });
    expect(send).not.toHaveBeenCalled();
  });

  it('dispose removes the handlers and closes the streams', async () => {
    const { call, ipc, streams, electronIpc } = setup();
    await call(IPC_CHANNELS.streamOpen, { stream: 'events' });
    electronIpc.dispose();
    expect(ipc.ipcMain.handlerCount()).toBe(0);
    expect(streams.open.size).toBe(0);
  });
});
