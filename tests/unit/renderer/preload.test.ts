import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '../../../src-main/ipc/electron-ipc.js';
import { createFakeElectronIpc } from '../../integration/renderer/fake-electron-ipc.js';
import { loadPreload } from '../../integration/renderer/load-preload.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the preload bridge', () => {
  it('exposes only window.bootwright with invoke, subscribe, requestStream and platform (no ipcRenderer)', () => {
    const { key, api } = loadPreload(createFakeElectronIpc());
    expect(key).toBe('bootwright');
    expect(Object.keys(api).sort()).toEqual(['invoke', 'platform', 'requestStream', 'subscribe']);
    expect(api.platform).toEqual({ os: 'linux', electron: '41.0.0', chrome: '140.0.0.0' });
  });

  it('invoke sends {method, path, body?} on bootwright:invoke', async () => {
    const ipc = createFakeElectronIpc();
    const handler = vi.fn(async (_request: unknown) => ({ status: 201, body: { success: true, data: 1 } }));
    ipc.ipcMain.handle(IPC_CHANNELS.invoke, (_event, request) => handler(request));
    const { api } = loadPreload(ipc);
    await expect(api.invoke('POST', '/api/v1/x', { a: 1 })).resolves.toEqual({ status: 201, body: { success: true, data: 1 } });
    await api.invoke('GET', '/api/v1/x');
    expect(handler.mock.calls).toEqual([[{ method: 'POST', path: '/api/v1/x', body: { a: 1 } }], [{ method: 'GET', path: '/api/v1/x' }]]);
  });

  it('opens a stream with {stream, params} on bootwright:stream:open', async () => {
    const ipc = createFakeElectronIpc();
    const opened: unknown[] = [];
    ipc.ipcMain.handle(IPC_CHANNELS.streamOpen, (_event, request) => {
      opened.push(request);
      return { ok: true, subscription: `s${opened.length}` };
    });
    const { api } = loadPreload(ipc);
    api.subscribe('events', { kind: 'service.', last_event_id: 5 }, () => undefined);
    api.subscribe('logs', undefined, () => undefined);
    await vi.waitFor(() => expect(opened).toEqual([{ stream: 'events', params: { kind: 'service.', last_event_id: 5 } }, { stream: 'logs' }]));
  });

  it('delivers messages pushed before stream:open answered (kept, then handed over in order)', async () => {
    const ipc = createFakeElectronIpc();
    ipc.ipcMain.handle(IPC_CHANNELS.streamOpen, async () => {
      ipc.sender.send(IPC_CHANNELS.streamMessage, { subscription: 's9', message: { id: 1, event: 'a', data: 1 } });
      ipc.sender.send(IPC_CHANNELS.streamMessage, { subscription: 's9', message: { id: 2, event: 'a', data: 2 } });
      await tick();
      return { ok: true, subscription: 's9' };
    });
    ipc.ipcMain.handle(IPC_CHANNELS.streamClose, () => ({ ok: true }));
    const { api } = loadPreload(ipc);
    const received: unknown[] = [];
    api.subscribe('events', undefined, (message) => received.push(message.id));
    await vi.waitFor(() => expect(received).toEqual([1, 2]));
    ipc.sender.send(IPC_CHANNELS.streamMessage, { subscription: 's9', message: { id: 3, event: 'a', data: 3 } });
    await vi.waitFor(() => expect(received).toEqual([1, 2, 3]));
  });

  it('requestStream POSTs {method, path, body}, hands on text pushed before the open answered, then the end', async () => {
    const ipc = createFakeElectronIpc();
    const opened: unknown[] = [];
    ipc.ipcMain.handle(IPC_CHANNELS.requestStreamOpen, async (_event, request) => {
      opened.push(request);
      ipc.sender.send(IPC_CHANNELS.requestStreamText, { subscription: 's4', text: 'event: row\nda' });
      await tick();
      return { ok: true, subscription: 's4' };
    });
    ipc.ipcMain.handle(IPC_CHANNELS.streamClose, () => ({ ok: true }));
    const { api } = loadPreload(ipc);
    const text: string[] = [];
    const onEnd = vi.fn();
    api.requestStream('/api/v1/network/ping/stream', { target: '127.0.0.1' }, (chunk) => text.push(chunk), onEnd, () => undefined);
    await vi.waitFor(() => expect(text).toEqual(['event: row\nda']));
    ipc.sender.send(IPC_CHANNELS.requestStreamText, { subscription: 's4', text: 'ta: 1\n\n' });
    ipc.sender.send(IPC_CHANNELS.requestStreamText, { subscription: 's4', end: true });
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledTimes(1));
    expect(text).toEqual(['event: row\nda', 'ta: 1\n\n']);
    expect(opened).toEqual([{ method: 'POST', path: '/api/v1/network/ping/stream', body: { target: '127.0.0.1' } }]);
  });

  it('requestStream hands a refusal on whole, and stopping closes on the main side', async () => {
    const ipc = createFakeElectronIpc();
    const closed = vi.fn((_id: unknown) => ({ ok: true }));
    let refuse = true;
    ipc.ipcMain.handle(IPC_CHANNELS.requestStreamOpen, () =>
      refuse ? { ok: false, response: { status: 429, body: { success: false, error: 'busy', code: 'RATE_LIMITED' } } } : { ok: true, subscription: 's5' },
    );
    ipc.ipcMain.handle(IPC_CHANNELS.streamClose, (_event, id) => closed(id));
    const { api } = loadPreload(ipc);
    const refused = vi.fn();
    api.requestStream('/api/v1/network/ping/stream', {}, () => undefined, () => undefined, refused);
    await vi.waitFor(() => expect(refused).toHaveBeenCalledWith({ status: 429, body: { success: false, error: 'busy', code: 'RATE_LIMITED' } }));
    refuse = false;
    const text: string[] = [];
    const stop = api.requestStream('/api/v1/network/ping/stream', {}, (chunk) => text.push(chunk), () => undefined, refused);
    await tick();
    stop();
    ipc.sender.send(IPC_CHANNELS.requestStreamText, { subscription: 's5', text: 'late' });
    await tick();
    expect(closed.mock.calls).toEqual([['s5']]);
    expect(text).toEqual([]);
  });

  it('closes on the main side, and delivers nothing more, after unsubscribe', async () => {
    const ipc = createFakeElectronIpc();
    const closed = vi.fn((_id: unknown) => ({ ok: true }));
    ipc.ipcMain.handle(IPC_CHANNELS.streamOpen, () => ({ ok: true, subscription: 's1' }));
    ipc.ipcMain.handle(IPC_CHANNELS.streamClose, (_event, id) => closed(id));
    const { api } = loadPreload(ipc);
    const received: unknown[] = [];
    const close = api.subscribe('events', undefined, (message) => received.push(message));
    await tick();
    close();
    close();
    ipc.sender.send(IPC_CHANNELS.streamMessage, { subscription: 's1', message: { event: 'late', data: null } });
    await tick();
    expect(closed.mock.calls).toEqual([['s1']]);
    expect(received).toEqual([]);
  });

  it('closes a stream that was unsubscribed before it finished opening', async () => {
    const ipc = createFakeElectronIpc();
    const closed = vi.fn((_id: unknown) => ({ ok: true }));
    ipc.ipcMain.handle(IPC_CHANNELS.streamOpen, async () => {
      await tick();
      return { ok: true, subscription: 's2' };
    });
    ipc.ipcMain.handle(IPC_CHANNELS.streamClose, (_event, id) => closed(id));
    const { api } = loadPreload(ipc);
    api.subscribe('events', undefined, () => undefined)();
    await vi.waitFor(() => expect(closed.mock.calls).toEqual([['s2']]));
  });

  it('reports a refused stream and a failed IPC call through onError as data', async () => {
    const ipc = createFakeElectronIpc();
    ipc.ipcMain.handle(IPC_CHANNELS.streamOpen, (_event, request) =>
      (request as { stream: string }).stream === 'events'
        ? { ok: false, error: { status: 400, code: 'VALIDATION_FAILED', message: 'params.x: unknown field' } }
        : Promise.reject(new Error('handler crashed')),
    );
    const { api } = loadPreload(ipc);
    const errors: unknown[] = [];
    api.subscribe('events', { x: '1' }, () => undefined, (error) => errors.push(error));
    api.subscribe('logs', undefined, () => undefined, (error) => errors.push(error));
    await vi.waitFor(() => expect(errors).toHaveLength(2));
    expect(errors).toContainEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'params.x: unknown field' });
    expect(errors).toContainEqual({ status: 0, code: 'BAD_RESPONSE', message: 'IPC call failed: handler crashed' });
  });
});
