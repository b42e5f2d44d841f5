// @vitest-environment jsdom
import '../dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetUploads } from '../../../../src-renderer/src/components/upload-store.js';
import { API_FIXTURES } from '../api-fixtures.js';
import { fail, ok, type Route } from '../fake-transport.js';
import { FakeXhr } from '../fake-xhr.js';
import { VIEWER_SESSION, callsTo, renderApp } from '../render-app.js';
import { BOOT_LIST, ROOTS } from '../images/images-fixtures.js';

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  cleanup();
  resetUploads();
  vi.unstubAllGlobals();
});

const SUB = {
  root: 'boot',
  path: 'images',
  entries: [{ name: 'debian', path: 'images/debian', type: 'directory', size: 4096, modified_at: '2024-05-01T00:00:00Z', target: null }],
};

const routes: Record<string, Route> = {
  ...API_FIXTURES,
  'GET /api/v1/files': (_, query) => ok(query.path === 'images' ? SUB : { ...BOOT_LIST, root: query.root ?? 'boot' }),
};

describe('Files page', () => {
  it('shows the roots with free space, lists a folder and walks into it and back by the breadcrumb', async () => {
    const fake = renderApp('/files', routes);
    expect((await screen.findByLabelText('Root details')).textContent).toBe('/data/boot · 50.0 GiB free of 100.0 GiB');
    const table = await screen.findByRole('table', { name: 'Files' });
    const rows = within(table).getAllByRole('row');
    // Folders first.
    expect(within(rows[1]!).getByRole('button', { name: 'Open folder images' })).toBeTruthy();
    expect(within(rows[2]!).getByText('ipxe.efi')).toBeTruthy();
    expect(within(rows[2]!).getByText('1000.0 KiB')).toBeTruthy();
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Open folder images' }));
    expect(await screen.findByRole('button', { name: 'Open folder debian' })).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/files').at(-1)?.query).toEqual({ root: 'boot', path: 'images' });
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Folder path' })).getByRole('button', { name: 'Boot root' }));
    expect(await screen.findByText('ipxe.efi')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Images' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/files').at(-1)?.query).toEqual({ root: 'images' }));
  });

  it('uploads into the open folder, asks before overwriting on a 409 and then sends overwrite=true', async () => {
    renderApp('/files?root=boot&path=images', routes);
    await screen.findByRole('button', { name: 'Open folder debian' });
    const input = document.querySelector<HTMLInputElement>('input[type=file]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['#!ipxe\n'], 'menu.ipxe')] } });
    expect(FakeXhr.last().query()).toEqual({ root: 'boot', path: 'images/menu.ipxe', size: '7' });
    act(() => FakeXhr.last().respond(409, { success: false, code: 'CONFLICT', error: 'images/menu.ipxe exists: send overwrite=true to replace it' }));
    const upload = await screen.findByRole('group', { name: 'Upload images/menu.ipxe' });
    expect(within(upload).getByRole('alert').textContent).toBe('images/menu.ipxe exists: send overwrite=true to replace it');
    fireEvent.click(within(upload).getByRole('button', { name: 'Overwrite images/menu.ipxe' }));
    expect(FakeXhr.last().query()).toEqual({ root: 'boot', path: 'images/menu.ipxe', size: '7', overwrite: 'true' });
    act(() => FakeXhr.last().respond(201, { success: true, data: { name: 'menu.ipxe' } }));
    expect(await within(upload).findByText('Uploaded 7 B')).toBeTruthy();
  });

  it('cancels an upload in flight', async () => {
    renderApp('/files', routes);
    await screen.findByText('ipxe.efi');
    const input = document.querySelector<HTMLInputElement>('input[type=file]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(4096)], 'big.img')] } });
    act(() => FakeXhr.last().progress(1024));
    const upload = await screen.findByRole('group', { name: 'Upload big.img' });
    expect(within(upload).getByText(/25 %/)).toBeTruthy();
    fireEvent.click(within(upload).getByRole('button', { name: 'Cancel upload big.img' }));
    expect(FakeXhr.last().aborted).toBe(true);
    expect(await within(upload).findByText('Cancelled')).toBeTruthy();
  });

  it('deletes a folder recursively after confirming, and shows the server\'s refusal in full', async () => {
    const fake = renderApp('/files', { ...routes, 'DELETE /api/v1/files': (_, query) => (query.path === 'images' ? ok(null) : fail(400, 'VALIDATION_FAILED', 'path: ipxe.efi is in use by the boot loader check')) });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete folder images' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete folder images?' });
    expect(within(confirm).getByText('The folder images and everything in it are deleted.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(fake.calls, 'DELETE', '/files')[0]?.query).toEqual({ root: 'boot', path: 'images', recursive: 'true' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete ipxe.efi' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete ipxe.efi?' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('path: ipxe.efi is in use by the boot loader check')).toBeTruthy();
    expect(callsTo(fake.calls, 'DELETE', '/files')[1]?.query).toEqual({ root: 'boot', path: 'ipxe.efi' });
  });

  it('shows a root\'s problem instead of its listing', async () => {
    const fake = renderApp('/files?root=images', { ...routes, 'GET /api/v1/files/root': () => ok([ROOTS[0], { ...ROOTS[1], problem: '/data/images does not exist', free_bytes: null, total_bytes: null }]) });
    expect(await screen.findByText('/data/images does not exist')).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/files')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Upload files' })).toBeNull();
  });

  it('shows a viewer no upload or delete', async () => {
    renderApp('/files', routes, { session: VIEWER_SESSION });
    await screen.findByText('ipxe.efi');
    expect(screen.queryByRole('button', { name: 'Upload files' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
  });
});
