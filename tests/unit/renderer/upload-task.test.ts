import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../src-renderer/src/api/api-error.js';
import { UploadAborted, xhrSender } from '../../../src-renderer/src/api/upload-sender.js';
import { UploadTask, type UploadSnapshot, type UploadTaskOptions } from '../../../src-renderer/src/api/upload-task.js';
import { FakeXhr } from './fake-xhr.js';

function setup(overrides: Partial<UploadTaskOptions> = {}) {
  FakeXhr.reset();
  let clock = 0;
  const snapshots: UploadSnapshot[] = [];
  const located: (string | null)[] = [];
  const discarded: string[] = [];
  const file = new Blob([new Uint8Array(1000)]);
  const task = new UploadTask({
    key: 'k',
    file,
    name: 'disk.iso',
    sender: xhrSender(() => new FakeXhr()),
    urlFor: ({ offset, uploadId, overwrite }) => `/os-images/upload?file_name=disk.iso&size=1000${uploadId ? `&upload_id=${uploadId}&offset=${offset}` : ''}${overwrite ? '&overwrite=true' : ''}`,
    locate: async (uploadId) => {
      located.push(uploadId);
      return { uploadId: 'a'.repeat(32), received: 400 };
    },
    discard: async (uploadId) => {
      discarded.push(uploadId);
    },
    onChange: (snapshot) => snapshots.push(snapshot),
    now: () => clock,
    ...overrides,
  });
  return { task, snapshots, located, discarded, tick: (ms: number) => (clock += ms) };
}

const IMAGE = { id: 7, name: 'disk' };

describe('UploadTask', () => {
  it('sends the raw file and reports bytes, percent and a rate, then the server\'s answer', async () => {
    const { task, tick } = setup();
    const done = task.start();
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/v1/os-images/upload?file_name=disk.iso&size=1000');
    expect(xhr.headers['content-type']).toBe('application/octet-stream');
    expect(xhr.body?.size).toBe(1000);
    tick(1000);
    xhr.progress(250);
    expect(task.snapshot).toMatchObject({ phase: 'uploading', sent: 250, percent: 25, rate: 250 });
    tick(1000);
    xhr.progress(500);
    expect(task.snapshot.rate).toBe(250);
    xhr.respond(201, { success: true, data: IMAGE }, { 'Upload-Id': 'f'.repeat(32) });
    await done;
    expect(task.snapshot).toMatchObject({ phase: 'done', percent: 100, sent: 1000, result: IMAGE, uploadId: 'f'.repeat(32) });
  });

  it('after a broken connection, Retry asks the server what it kept and sends the rest with upload_id and offset', async () => {
    const { task, located } = setup();
    const first = task.start();
    FakeXhr.last().progress(600);
    FakeXhr.last().breakConnection();
    await first;
    expect(task.snapshot.phase).toBe('interrupted');
    expect(task.snapshot.error).toMatch(/connection/);
    const second = task.retry();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(located).toEqual([null]);
    const xhr = FakeXhr.last();
    expect(xhr.query()).toMatchObject({ upload_id: 'a'.repeat(32), offset: '400' });
    // Only the bytes after the server's count go out.
    expect(xhr.body?.size).toBe(600);
    expect(task.snapshot).toMatchObject({ sent: 400, percent: 40 });
    xhr.progress(100);
    expect(task.snapshot.sent).toBe(500);
    xhr.respond(201, { success: true, data: IMAGE });
    await second;
    expect(task.snapshot.phase).toBe('done');
  });

  it('starts over when the server kept nothing', async () => {
    const { task } = setup({ locate: async () => null });
    const first = task.start();
    FakeXhr.last().breakConnection();
    await first;
    const second = task.retry();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(FakeXhr.last().query().upload_id).toBeUndefined();
    expect(FakeXhr.last().body?.size).toBe(1000);
    FakeXhr.last().respond(201, { success: true, data: IMAGE });
    await second;
    expect(task.snapshot.phase).toBe('done');
  });

  it('Cancel aborts the request and discards the partial file the server kept', async () => {
    const { task, discarded, located } = setup();
    const running = task.start();
    FakeXhr.last().progress(100);
    await task.cancel();
    await running;
    expect(FakeXhr.last().aborted).toBe(true);
    expect(task.snapshot.phase).toBe('cancelled');
    // The request was cut short before its Upload-Id: the partial is looked up by name and size.
    expect(located).toEqual([null]);
    expect(discarded).toEqual(['a'.repeat(32)]);
  });

  it('a 409 on a fresh upload waits for Overwrite, which sends it again with overwrite=true', async () => {
    const { task } = setup({ locate: undefined, discard: undefined });
    const first = task.start();
    FakeXhr.last().respond(409, { success: false, code: 'CONFLICT', error: 'images/disk.iso exists' });
    await first;
    expect(task.snapshot).toMatchObject({ phase: 'conflict', error: 'images/disk.iso exists' });
    const second = task.retry({ overwrite: true });
    expect(FakeXhr.last().query().overwrite).toBe('true');
    FakeXhr.last().respond(201, { success: true, data: IMAGE });
    await second;
    expect(task.snapshot.phase).toBe('done');
  });

  it('shows a refusal with the server\'s own message', async () => {
    const { task } = setup();
    const running = task.start();
    FakeXhr.last().respond(413, { success: false, code: 'PAYLOAD_TOO_LARGE', error: 'not enough free space in /data/images: the file needs 1000 bytes, 10 are free' });
    await running;
    expect(task.snapshot).toMatchObject({ phase: 'failed', error: 'not enough free space in /data/images: the file needs 1000 bytes, 10 are free' });
  });
});

describe('xhrSender', () => {
  it('rejects with NETWORK_ERROR on a break and UploadAborted on abort', async () => {
    FakeXhr.reset();
    const send = xhrSender(() => new FakeXhr());
    const broken = send({ url: '/x', body: new Blob(['a']) }, new AbortController().signal);
    FakeXhr.last().breakConnection();
    await expect(broken).rejects.toSatisfy((error: unknown) => isApiError(error) && error.code === 'NETWORK_ERROR');
    const controller = new AbortController();
    const aborted = send({ url: '/x', body: new Blob(['a']) }, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(UploadAborted);
  });
});
