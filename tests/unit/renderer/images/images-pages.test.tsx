// @vitest-environment jsdom
import '../dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OsImage } from '@contracts/os-images';
import { resetUploads } from '../../../../src-renderer/src/components/upload-store.js';
import { API_FIXTURES } from '../api-fixtures.js';
import { fail, ok, type Route } from '../fake-transport.js';
import { FakeXhr } from '../fake-xhr.js';
import { OPERATOR_SESSION, VIEWER_SESSION, callsTo, renderApp } from '../render-app.js';
import { IMAGE, IMPORTED, PARTIAL } from './images-fixtures.js';

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  cleanup();
  resetUploads();
  vi.unstubAllGlobals();
});

const routes: Record<string, Route> = { ...API_FIXTURES };

function chooseFiles(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[type=file]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files } });
}

describe('OS images list', () => {
  it('lists images with detected OS, size, source, state with its error and the mount', async () => {
    const fake = renderApp('/images?state=error&family=windows', routes);
    const table = await screen.findByRole('table', { name: 'OS images' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByRole('link', { name: 'Debian 12.5 netinst' }).getAttribute('href')).toBe('/images/1');
    expect(within(rows[1]!).getByText('Debian GNU/Linux 12.5.0 · amd64')).toBeTruthy();
    expect(within(rows[1]!).getByText('628.0 MiB')).toBeTruthy();
    expect(within(rows[1]!).getByText('Uploaded')).toBeTruthy();
    expect(within(rows[2]!).getByText('not detected yet')).toBeTruthy();
    expect(within(rows[2]!).getByText('the file /srv/isos/Win11_24H2.iso is missing')).toBeTruthy();
    expect(within(rows[2]!).getByLabelText('Mounted under').textContent).toBe('/boot/iso/win11/');
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/os-images').at(-1)?.query).toMatchObject({ state: 'error', family: 'windows' }));
  });

  it('uploads a chosen ISO as a raw body with its file name and size, shows the progress and cancels it', async () => {
    const fake = renderApp('/images', { ...routes, 'GET /api/v1/os-images/uploads': () => ok([]), 'DELETE /api/v1/os-images/uploads/ffffffffffffffffffffffffffffffff': () => ok(null) });
    await screen.findByRole('button', { name: 'Upload ISO' });
    chooseFiles([new File([new Uint8Array(2048)], 'debian 12 (netinst).iso')]);
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('POST');
    expect(xhr.url.split('?')[0]).toBe('/api/v1/os-images/upload');
    // The browser's name made fit for the upload route, and an upload id of our own (resume never guesses by name).
    expect(xhr.query()).toEqual({ file_name: 'debian_12__netinst_.iso', size: '2048', upload_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    act(() => xhr.progress(1024));
    const upload = await screen.findByRole('group', { name: 'Upload debian_12__netinst_.iso' });
    expect(within(upload).getByText(/1\.0 KiB of 2\.0 KiB · 50 %/)).toBeTruthy();
    // Cancel discards the upload by that id (no Upload-Id header came yet).
    const uploadId = xhr.query().upload_id ?? '';
    fireEvent.click(within(upload).getByRole('button', { name: 'Cancel upload debian_12__netinst_.iso' }));
    expect(xhr.aborted).toBe(true);
    await waitFor(() => expect(callsTo(fake.calls, 'DELETE', `/os-images/uploads/${uploadId}`)).toHaveLength(1));
    expect(await within(upload).findByText('Cancelled')).toBeTruthy();
  });

  it('offers Retry after a network break and resumes from what the server kept', async () => {
    let partials: unknown[] = [];
    renderApp('/images', { ...routes, 'GET /api/v1/os-images/uploads': () => ok(partials) });
    await screen.findByRole('button', { name: 'Upload ISO' });
    chooseFiles([new File([new Uint8Array(4000)], 'disk.iso')]);
    act(() => FakeXhr.last().progress(1500));
    const uploadId = FakeXhr.last().query().upload_id ?? '';
    // Another partial of the same name and size is not ours: only the id counts.
    partials = [
      { upload_id: 'a'.repeat(32), file_name: 'disk.iso', received: 3000, size: 4000, updated_at: '2024-05-02T00:00:00Z' },
      { upload_id: uploadId, file_name: 'disk.iso', received: 1000, size: 4000, updated_at: '2024-05-01T00:00:00Z' },
    ];
    act(() => FakeXhr.last().breakConnection());
    const upload = await screen.findByRole('group', { name: 'Upload disk.iso' });
    fireEvent.click(await within(upload).findByRole('button', { name: 'Retry upload disk.iso' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    expect(FakeXhr.last().query()).toEqual({ file_name: 'disk.iso', size: '4000', upload_id: uploadId, offset: '1000' });
    expect(FakeXhr.last().body?.size).toBe(3000);
    act(() => FakeXhr.last().respond(201, { success: true, data: { ...IMAGE, id: 9, name: 'disk' } }));
    expect(await within(upload).findByText('Uploaded 3.9 KiB')).toBeTruthy();
  });

  it('lists partial uploads and resumes one with the same file, refusing another', async () => {
    renderApp('/images', { ...routes, 'GET /api/v1/os-images/uploads': () => ok([PARTIAL]) });
    const card = await screen.findByRole('group', { name: 'Partial upload ubuntu-24.04.iso' });
    expect(within(card).getByText(/1\.0 KiB of 4\.0 KiB/)).toBeTruthy();
    const input = card.querySelector<HTMLInputElement>('input[type=file]') ?? document.querySelectorAll<HTMLInputElement>('input[type=file]')[1];
    if (!input) throw new Error('no file input for resume');
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(10)], 'other.iso')] } });
    expect(await screen.findByText(/is not the file this upload began with/)).toBeTruthy();
    expect(FakeXhr.all).toHaveLength(0);
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(4096)], 'ubuntu-24.04.iso')] } });
    expect(FakeXhr.last().query()).toMatchObject({ upload_id: PARTIAL.upload_id, offset: '1024' });
    expect(FakeXhr.last().body?.size).toBe(4096 - 1024);
  });

  it('imports a file picked in the file browser, and navigates to the new image', async () => {
    const fake = renderApp('/images', { ...routes, 'POST /api/v1/os-images/import': (body) => ({ status: 201, body: { success: true, data: { ...IMPORTED, ...(body as object) } } }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Import from the server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import an image from this machine' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Open folder /srv/isos' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Choose file Win11_24H2.iso' }));
    expect(callsTo(fake.calls, 'GET', '/fs/browse').at(-1)?.query).toEqual({ path: '/srv/isos', show: 'all', extensions: '.iso,.img' });
    fireEvent.click(within(dialog).getByLabelText(/Copy it into the images folder/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/os-images/import')[0]?.body).toEqual({ path: '/srv/isos/Win11_24H2.iso', mode: 'copy' }));
    expect(await screen.findByRole('heading', { name: 'Windows 11', level: 1 })).toBeTruthy();
  });

  it('in the desktop app offers import from this machine instead of an upload', async () => {
    renderApp('/images', routes, { kind: 'ipc' });
    expect(await screen.findByRole('button', { name: 'Import from this machine' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upload ISO' })).toBeNull();
  });

  it('an operator types the path (browsing is an admin\'s) and sees no drop-folder settings', async () => {
    const fake = renderApp('/images', { ...routes, 'POST /api/v1/os-images/import': () => fail(400, 'VALIDATION_FAILED', 'body.path: /etc/passwd is outside the allowed roots') }, { session: OPERATOR_SESSION });
    fireEvent.click(await screen.findByRole('button', { name: 'Import from the server' }));
    expect(screen.queryByRole('button', { name: 'Drop folder…' })).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Import an image from this machine' });
    fireEvent.change(within(dialog).getByLabelText(/Path of the ISO/), { target: { value: '/etc/passwd' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('body.path: /etc/passwd is outside the allowed roots')).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/fs/browse')).toHaveLength(0);
  });

  it('sets the drop folder with the folder picker (admin)', async () => {
    const fake = renderApp('/images', { ...routes, 'PUT /api/v1/os-images/settings': (body) => ok({ drop_folder: null, auto_mount: false, ...(body as object) }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Drop folder…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image settings' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Choose folder' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Open folder /srv/isos' }));
    fireEvent.click(within(dialog).getByLabelText('Mount new images as soon as they are detected'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/os-images/settings')[0]?.body).toEqual({ drop_folder: '/srv/isos', auto_mount: true }));
  });

  it('shows a viewer the list without upload or import', async () => {
    renderApp('/images', routes, { session: VIEWER_SESSION });
    await screen.findByRole('table', { name: 'OS images' });
    expect(screen.queryByRole('button', { name: 'Upload ISO' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Import/ })).toBeNull();
  });
});

describe('OS image detail', () => {
  const mounted: OsImage = { ...IMAGE, mounted: { url_path: '/boot/iso/debian-12.5.0-amd64-netinst/', since: '2024-05-01T00:00:00Z' } };

  it('shows the ISO facts and detection, and mounts the image, then its LAN URL', async () => {
    let current: OsImage = IMAGE;
    const fake = renderApp('/images/1', {
      ...routes,
      'GET /api/v1/os-images/1': () => ok(current),
      'POST /api/v1/os-images/1/mount': () => {
        current = mounted;
        return ok(mounted);
      },
    });
    expect(await screen.findByRole('heading', { name: 'Debian 12.5 netinst', level: 1 })).toBeTruthy();
    const iso = screen.getByRole('table', { name: 'ISO 9660 volume' });
    expect(within(iso).getByText('Debian 12.5.0 amd64 n')).toBeTruthy();
    expect(within(iso).getByText('Joliet')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'El Torito boot entries' })).getByText('UEFI')).toBeTruthy();
    const detection = screen.getByRole('table', { name: 'What detection found' });
    expect(within(detection).getByText('install.amd/initrd.gz')).toBeTruthy();
    expect(within(detection).getByText('vga=788 --- quiet')).toBeTruthy();
    expect(within(detection).getByRole('link', { name: 'debian 12 x86_64' }).getAttribute('href')).toBe('/netboot?q=debian');
    fireEvent.click(screen.getByRole('button', { name: 'Mount' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/os-images/1/mount')).toHaveLength(1));
    // The dashboard's LAN address (status.urls), not the page's origin.
    expect((await screen.findByLabelText('Mounted content URL')).textContent).toBe('http://10.0.0.1:8080/boot/iso/debian-12.5.0-amd64-netinst/');
    expect(screen.getByLabelText('ISO file URL').textContent).toBe('http://10.0.0.1:8080/boot/iso/debian-12.5.0-amd64-netinst.iso');
    expect(screen.getByRole('button', { name: 'Unmount' })).toBeTruthy();
  });

  it('extracts in the chosen mode and shows the progress the events report', async () => {
    const fake = renderApp('/images/1', { ...routes, 'POST /api/v1/os-images/1/extract': () => ({ status: 202, body: { success: true, data: IMAGE } }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Extract…' }));
    const dialog = await screen.findByRole('dialog', { name: /Extract/ });
    fireEvent.click(within(dialog).getByLabelText('The whole tree (as big as the ISO)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extract' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/os-images/1/extract')[0]?.body).toEqual({ mode: 'full', overwrite: false }));
    const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed);
    if (!stream) throw new Error('no event stream');
    act(() =>
      stream.handlers.onMessage({
        id: 50,
        event: 'os_image.extract.progress',
        data: { id: 50, kind: 'os_image.extract.progress', level: 'info', message: 'extracting', mac: null, ip: null, host_id: null, detail: { image_id: 1, files: 12, bytes: 1048576, total_bytes: 4194304, percent: 25 }, created_at: new Date().toISOString() },
      }),
    );
    const progress = await screen.findByRole('group', { name: 'Extraction progress' });
    expect(within(progress).getByText('Extracting… 12 files, 1.0 MiB of 4.0 MiB')).toBeTruthy();
    expect(within(progress).getByText('25 %')).toBeTruthy();
    act(() =>
      stream.handlers.onMessage({
        id: 51,
        event: 'os_image.extracted',
        data: { id: 51, kind: 'os_image.extracted', level: 'info', message: 'extracted', mac: null, ip: null, host_id: null, detail: { image_id: 1 }, created_at: new Date().toISOString() },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Extraction progress' })).toBeNull());
    expect(screen.queryByText('The extraction failed')).toBeNull();
    // A failure comes only as an event (the 202 came first): the page says why.
    act(() =>
      stream.handlers.onMessage({
        id: 52,
        event: 'os_image.failed',
        data: { id: 52, kind: 'os_image.failed', level: 'warn', message: 'extracting failed', mac: null, ip: null, host_id: null, detail: { image_id: 1, operation: 'extract', error: 'images/debian exists already' }, created_at: new Date().toISOString() },
      }),
    );
    const title = await screen.findByText('The extraction failed');
    expect(title.closest('[role=alert]')?.textContent).toContain('images/debian exists already');
  });

  it('creates a profile that boots the ISO and links to it', async () => {
    renderApp('/images/1', {
      ...routes,
      'POST /api/v1/os-images/1/boot-profile': () => ({ status: 201, body: { success: true, data: { profile: { id: 1, name: 'Boot Debian 12.5 netinst' }, created: true, notes: ['Debian reads the rest of the ISO over HTTP'] } } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Boot this ISO' }));
    expect((await screen.findByRole('link', { name: 'Boot Debian 12.5 netinst' })).getAttribute('href')).toBe('/profiles/1');
    expect(screen.getByText('Debian reads the rest of the ISO over HTTP')).toBeTruthy();
    expect(screen.getByText(/was created/)).toBeTruthy();
  });

  it('boots over NFS with via nfs, and shows the server\'s reason when the image cannot', async () => {
    const fake = renderApp('/images/1', {
      ...routes,
      'POST /api/v1/os-images/1/boot-profile': (body) =>
        (body as { via?: string }).via === 'nfs'
          ? { status: 409, body: { success: false, code: 'INVALID_STATE', error: 'image 1 (Debian GNU/Linux 12.5.0 amd64): its boot takes its medium over HTTP only' } }
          : { status: 201, body: { success: true, data: { profile: { id: 1, name: 'ISO debian' }, created: true, notes: [] } } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Boot over NFS' }));
    expect(await screen.findByText(/over HTTP only/)).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/os-images/1/boot-profile')[0]?.body).toEqual({ via: 'nfs' });
    fireEvent.click(screen.getByRole('button', { name: 'Boot this ISO' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/os-images/1/boot-profile')[1]?.body).toEqual({ via: 'http' }));
  });

  it('edits the name and slug, sending only what changed', async () => {
    const fake = renderApp('/images/1', { ...routes, 'PUT /api/v1/os-images/1': (body) => ok({ ...IMAGE, ...(body as object) }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: /Edit/ });
    fireEvent.change(within(dialog).getByLabelText(/^Slug/), { target: { value: 'Bad Slug' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save image' }));
    expect(await within(dialog).findByText(/Lower-case letters/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Slug/), { target: { value: 'debian12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save image' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/os-images/1')[0]?.body).toEqual({ slug: 'debian12' }));
  });

  it('deleting an image in use shows what uses it, then deletes anyway with force; an imported image may keep its file', async () => {
    let attempts = 0;
    const fake = renderApp('/images/2', {
      ...routes,
      'DELETE /api/v1/os-images/2': () => {
        attempts += 1;
        return attempts === 1
          ? { status: 409, body: { success: false, code: 'CONFLICT', error: 'image win11 is in use by 1 profile and 1 task', details: [{ field: 'profiles', message: 'Boot Windows 11 (#4)' }, { type: 'task', name: 'install #7' }] } }
          : ok(IMPORTED);
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete image Windows 11?' });
    fireEvent.click(within(dialog).getByLabelText(/Also delete the file/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete image' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('image win11 is in use by 1 profile and 1 task')).toBeTruthy();
    expect(within(alert).getByText('profiles: Boot Windows 11 (#4)')).toBeTruthy();
    expect(within(alert).getByText('task install #7')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(callsTo(fake.calls, 'DELETE', '/os-images/2').map((call) => call.query)).toEqual([{ delete_file: 'true' }, { force: 'true', delete_file: 'true' }]));
    expect(await screen.findByRole('heading', { name: 'OS images', level: 1 })).toBeTruthy();
  });

  it('offers a viewer the download only', async () => {
    renderApp('/images/1', routes, { session: VIEWER_SESSION });
    expect((await screen.findByRole('link', { name: 'Download the ISO' })).getAttribute('href')).toBe('/api/v1/os-images/1/file');
    expect(screen.queryByRole('button', { name: 'Mount' })).toBeNull();
  });
});
