// @vitest-environment jsdom
import '../dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventData } from '@contracts/events';
import type { PrefetchJob } from '@contracts/netboot';
import { ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';
import { CHECKS, NETBOOT_FIXTURES } from './netboot-fixtures.js';

afterEach(cleanup);

const JOB: PrefetchJob = { id: 'job-7', distro: 'debian', version: '12', arch: 'x86_64', state: 'running', bytes_done: 0, bytes_total: null, error: null };

let eventId = 100;
function event(kind: string, detail: Record<string, unknown>): EventData {
  eventId += 1;
  return { id: eventId, kind, level: 'info', message: kind, mac: null, ip: null, host_id: null, detail, created_at: new Date().toISOString() };
}

function push(fake: ReturnType<typeof renderApp>, data: EventData) {
  const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed);
  if (!stream) throw new Error('no open event stream');
  act(() => stream.handlers.onMessage({ id: data.id, event: data.kind, data }));
}

const routes: Record<string, Route> = {
  ...NETBOOT_FIXTURES,
  'GET /api/v1/hosts': () => okList([]),
};

describe('Netboot catalog', () => {
  it('shows each entry with its versions and where each architecture\'s files are', async () => {
    const fake = renderApp('/netboot', routes);
    const debian = await screen.findByRole('article', { name: 'Debian' });
    expect(within(debian).getByText('12 (bookworm)')).toBeTruthy();
    await waitFor(() => expect(within(debian).getByText('x86_64 · remote')).toBeTruthy());
    expect(within(debian).getByText('arm64 · cached')).toBeTruthy();
    // The badge explains itself to the keyboard and screen readers.
    expect(within(debian).getByLabelText(/x86_64: remote\. The files are only on the mirror/)).toBeTruthy();
    const memtest = screen.getByRole('article', { name: 'memtest86+' });
    expect(within(memtest).getByText('x86_64 · local')).toBeTruthy();
    expect(within(memtest).getByText('overlay')).toBeTruthy();
    // Only a remote architecture offers Prefetch.
    expect(within(debian).getByRole('button', { name: 'Prefetch Debian 12 x86_64' })).toBeTruthy();
    expect(within(debian).queryByRole('button', { name: 'Prefetch Debian 12 arm64' })).toBeNull();
    // Cache statistics.
    expect(await screen.findByText('50.0 MiB of 20.0 GiB')).toBeTruthy();
    expect(screen.getByText('75 % (3/4)')).toBeTruthy();
    // The group filter goes to the server.
    fireEvent.click(screen.getAllByLabelText('Group').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Tools' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/netboot/catalog').at(-1)?.query.group).toBe('tools'));
  });

  it('prefetches an architecture and follows its progress from the live events', async () => {
    let cached = false;
    const fake = renderApp('/netboot', {
      ...routes,
      'POST /api/v1/netboot/prefetch': () => ({ status: 202, body: { success: true, data: JOB } }),
      'GET /api/v1/netboot/check-files': () => ok(cached ? CHECKS.map((check) => (check.distro === 'debian' && check.arch === 'x86_64' ? { ...check, availability: 'cached' } : check)) : CHECKS),
    });
    const debian = await screen.findByRole('article', { name: 'Debian' });
    fireEvent.click(await within(debian).findByRole('button', { name: 'Prefetch Debian 12 x86_64' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/netboot/prefetch')[0]?.body).toEqual({ distro: 'debian', version: '12', arch: 'x86_64' }));
    const bar = await within(debian).findByRole('progressbar', { name: 'Prefetch Debian 12 x86_64' });
    push(fake, event('netboot.prefetch.progress', { job_id: 'job-7', bytes_done: 25 * 1024 * 1024, bytes_total: 100 * 1024 * 1024 }));
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('25'));
    expect(within(debian).getByText('25.0 MiB of 100.0 MiB')).toBeTruthy();
    push(fake, event('netboot.prefetch.progress', { job_id: 'job-7', bytes_done: 60 * 1024 * 1024, bytes_total: 100 * 1024 * 1024 }));
    await waitFor(() => expect(within(debian).getByRole('progressbar', { name: 'Prefetch Debian 12 x86_64' }).getAttribute('aria-valuenow')).toBe('60'));
    // Done: the files are checked again and show as cached.
    cached = true;
    push(fake, event('netboot.prefetch.done', { job_id: 'job-7', bytes_done: 100 * 1024 * 1024, bytes_total: 100 * 1024 * 1024 }));
    await waitFor(() => expect(within(debian).getByText('x86_64 · cached')).toBeTruthy());
    expect(within(debian).queryByRole('button', { name: 'Prefetch Debian 12 x86_64' })).toBeNull();
  });

  it('creates a profile from an entry and opens it', async () => {
    const fake = renderApp('/netboot', {
      ...routes,
      'POST /api/v1/profiles/from-netboot': (body) => ({ status: 201, body: { success: true, data: { id: 9, name: (body as { name: string }).name } } }),
      'GET /api/v1/profiles/9': () => ok({ id: 9, name: 'Debian 12 amd64', description: '', boot_type: 'linux', script: '', linux: null, chain: null, sanboot: null, menu: null, variables: {}, default_for_groups: [], script_version: 1, created_at: '2024-05-01T00:00:00Z', updated_at: '2024-05-01T00:00:00Z', used_by: { assigned: 0, by_group: 0 } }),
      'GET /api/v1/profiles/9/script-versions': () => okList([]),
    });
    const debian = await screen.findByRole('article', { name: 'Debian' });
    fireEvent.click(within(debian).getByRole('button', { name: 'Create profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a profile from Debian' });
    fireEvent.change(within(dialog).getByLabelText(/^Profile name/), { target: { value: 'Debian 12 amd64' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/profiles/from-netboot')[0]?.body).toEqual({ distro: 'debian', version: '12', arch: 'x86_64', name: 'Debian 12 amd64' }));
    expect(await screen.findByRole('heading', { name: 'Debian 12 amd64', level: 1 })).toBeTruthy();
  });

  it('offers a viewer no prefetch, profile, install or cache action', async () => {
    renderApp('/netboot', routes, { session: VIEWER_SESSION });
    const debian = await screen.findByRole('article', { name: 'Debian' });
    await waitFor(() => expect(within(debian).getByText('x86_64 · remote')).toBeTruthy());
    expect(within(debian).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Empty cache' })).toBeNull();
  });
});
