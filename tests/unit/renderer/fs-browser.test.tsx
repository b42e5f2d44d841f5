// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FsBrowser, pathCrumbs } from '../../../src-renderer/src/components/FsBrowser.js';
import { fakeTransport, fail, ok } from './fake-transport.js';
import { renderWithProviders } from './render-app.js';

afterEach(cleanup);

const at = (path: string, entries: { name: string; type?: 'file' | 'directory' }[], parent: string | null = null) =>
  ok({
    path,
    parent,
    roots: ['/srv', '/data/images'],
    entries: entries.map((entry) => ({ name: entry.name, path: `${path}/${entry.name}`, type: entry.type ?? 'directory', size: 10, modified_at: '2024-05-01T00:00:00Z' })),
  });

function Harness({ mode }: { mode: 'directory' | 'file' }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <FsBrowser mode={mode} extensions=".iso" value={value} onChange={setValue} />
      <output aria-label="value">{value ?? ''}</output>
    </>
  );
}

function setup(mode: 'directory' | 'file') {
  const fake = fakeTransport({
    'GET /api/v1/fs/browse': (_, query) => {
      if (query.path === undefined) return ok({ path: null, parent: null, roots: ['/srv', '/data/images'], entries: [{ name: 'srv', path: '/srv', type: 'directory', size: 0, modified_at: '2024-05-01T00:00:00Z' }] });
      if (query.path === '/srv') return at('/srv', [{ name: 'isos' }]);
      if (query.path === '/srv/isos') return at('/srv/isos', [{ name: 'a.iso', type: 'file' }], '/srv');
      return fail(400, 'VALIDATION_FAILED', `path: ${query.path} is outside the browse roots`);
    },
  });
  renderWithProviders(<Harness mode={mode} />, fake.transport);
  return fake;
}

describe('FsBrowser', () => {
  it('picks a folder by opening it, with breadcrumbs and Up', async () => {
    const fake = setup('directory');
    fireEvent.click(await screen.findByRole('button', { name: 'Open folder /srv' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open folder isos' }));
    await waitFor(() => expect(screen.getByLabelText('value').textContent).toBe('/srv/isos'));
    expect(fake.calls.map((call) => call.path).at(-1)).toBe('/api/v1/fs/browse?path=%2Fsrv%2Fisos&show=directories');
    const crumbs = screen.getByRole('navigation', { name: 'Folder path' });
    expect((await within(crumbs).findByText('isos')).getAttribute('aria-current')).toBe('location');
    fireEvent.click(screen.getByRole('button', { name: 'Up' }));
    await waitFor(() => expect(screen.getByLabelText('value').textContent).toBe('/srv'));
    fireEvent.click(within(crumbs).getByRole('button', { name: 'Browse roots' }));
    expect(await screen.findByRole('button', { name: 'Open folder /srv' })).toBeTruthy();
  });

  it('picks a file with the wanted extensions', async () => {
    const fake = setup('file');
    fireEvent.click(await screen.findByRole('button', { name: 'Open folder /srv' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open folder isos' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Choose file a.iso' }));
    expect(screen.getByLabelText('value').textContent).toBe('/srv/isos/a.iso');
    expect(fake.calls.map((call) => call.path).at(-1)).toBe('/api/v1/fs/browse?path=%2Fsrv%2Fisos&show=all&extensions=.iso');
  });

  it('names the folder under its browse root in the breadcrumbs', () => {
    expect(pathCrumbs('/data/images/debian/12', ['/data', '/data/images'])).toEqual([
      { label: '/data/images', path: '/data/images' },
      { label: 'debian', path: '/data/images/debian' },
      { label: '12', path: '/data/images/debian/12' },
    ]);
    expect(pathCrumbs('/elsewhere', ['/srv'])).toEqual([{ label: '/elsewhere', path: '/elsewhere' }]);
  });
});
