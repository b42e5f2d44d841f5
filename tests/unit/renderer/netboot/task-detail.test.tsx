// @vitest-environment jsdom
import '../dom-setup.js';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventData } from '@contracts/events';
import type { InstallTask } from '@contracts/netboot';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';
import { NETBOOT_FIXTURES, TASK } from './netboot-fixtures.js';

afterEach(cleanup);

const phases = () =>
  Object.fromEntries([...screen.getByRole('list', { name: 'Install phases' }).querySelectorAll('li')].map((item) => [item.getAttribute('data-phase'), item.getAttribute('data-status')]));

const routes = (task: () => InstallTask): Record<string, Route> => ({
  ...NETBOOT_FIXTURES,
  'GET /api/v1/hosts': () => okList([]),
  'GET /api/v1/netboot/tasks/1': () => ok(task()),
});

describe('Install task detail', () => {
  it('renders the timeline and follows it live when the task changes', async () => {
    let task: InstallTask = TASK;
    const fake = renderApp('/netboot/tasks/1', routes(() => task));
    expect(await screen.findByRole('heading', { name: 'Install task #1', level: 1 })).toBeTruthy();
    expect(screen.getByText('boot script served', { selector: 'p' })).toBeTruthy();
    expect(phases()).toEqual({ dhcp: 'reached', script: 'reached', files: 'waiting', answer: 'waiting', callbacks: 'waiting', done: 'waiting' });
    // The installer fetched its answer file: the event makes the page read the task again.
    task = {
      ...TASK,
      state: 'installing',
      timeline: [
        ...TASK.timeline,
        { at: '2024-05-01T00:01:10Z', kind: 'http.transfer', state: null, message: 'linux sent (7.9 MiB)' },
        { at: '2024-05-01T00:02:00Z', kind: 'netboot.answer_fetched', state: null, message: 'answer file fetched' },
        { at: '2024-05-01T00:02:30Z', kind: 'netboot.callback', state: 'installing', message: 'installer started' },
      ],
    };
    const stream = fake.streams.find((entry) => entry.request.stream === 'events' && !entry.closed);
    if (!stream) throw new Error('no open event stream');
    const event: EventData = { id: 500, kind: 'netboot.task.state', level: 'info', message: 'task 1 booting → installing', mac: TASK.mac, ip: null, host_id: 1, detail: { task_id: 1, from: 'booting', to: 'installing' }, created_at: new Date().toISOString() };
    act(() => stream.handlers.onMessage({ id: 500, event: event.kind, data: event }));
    expect(await screen.findByText('answer file fetched')).toBeTruthy();
    expect(screen.getByText('installer started')).toBeTruthy();
    expect(phases()).toEqual({ dhcp: 'reached', script: 'reached', files: 'reached', answer: 'reached', callbacks: 'reached', done: 'waiting' });
    expect(within(screen.getByRole('main')).getAllByText('installing').length).toBeGreaterThan(0);
  });

  it('gives operators the answer URL to copy, and cancels after confirmation', async () => {
    const fake = renderApp('/netboot/tasks/1', { ...routes(() => TASK), 'PUT /api/v1/netboot/tasks/1': () => ok({ ...TASK, state: 'cancelled' }) });
    expect(await screen.findByText(TASK.answer_url ?? '')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy the answer URL' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel task' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Cancel task #1?' })).getByRole('button', { name: 'Cancel task' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/netboot/tasks/1')[0]?.body).toEqual({ state: 'cancelled' }));
  });

  it('says where the installer comes from: a linked OS image (with a link), what still needs the network, or why the image was not used', async () => {
    const fromImage: InstallTask = {
      ...TASK,
      boot_source: { kind: 'image', image_id: 3, image_name: 'Rocky 9.4 DVD', message: 'kernel and initrd from /boot/iso/rocky-9-4/; packages from the image', network: '', fallback: null },
    };
    renderApp('/netboot/tasks/1', routes(() => fromImage));
    const link = await screen.findByRole('link', { name: 'OS image Rocky 9.4 DVD' });
    expect(link.getAttribute('href')).toBe('/images/3');
    expect(screen.getByText(/packages from the image/)).toBeTruthy();
    cleanup();

    const fellBack: InstallTask = {
      ...TASK,
      boot_source: { kind: 'catalog', image_id: null, image_name: null, message: 'kernel and initrd from the download cache', network: 'the mirror for packages', fallback: 'OS image 3 was deleted' },
    };
    renderApp('/netboot/tasks/1', routes(() => fellBack));
    expect(await screen.findByText(/The catalog \(download cache\)/)).toBeTruthy();
    expect(screen.getByText('Still needs the network: the mirror for packages')).toBeTruthy();
    expect(screen.getByText('Not from the linked image: OS image 3 was deleted')).toBeTruthy();
  });

  it('restarts a failed task', async () => {
    const fake = renderApp('/netboot/tasks/1', { ...routes(() => ({ ...TASK, state: 'failed', finished_at: '2024-05-01T00:05:00Z' })), 'PUT /api/v1/netboot/tasks/1': () => ok({ ...TASK, state: 'pending' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/netboot/tasks/1')[0]?.body).toEqual({ state: 'pending' }));
    expect(screen.queryByRole('button', { name: 'Cancel task' })).toBeNull();
  });

  it('shows a viewer the timeline without the answer URL or actions', async () => {
    const { answer_url: _hidden, ...forViewer } = TASK;
    renderApp('/netboot/tasks/1', routes(() => forViewer), { session: VIEWER_SESSION });
    await screen.findByRole('heading', { name: 'Install task #1', level: 1 });
    expect(screen.queryByText('Answer URL')).toBeNull();
    expect(screen.queryByRole('button', { name: /Cancel|Restart|Delete/ })).toBeNull();
  });

  it('lists tasks with the state filter sent to the server', async () => {
    const fake = renderApp('/netboot/tasks', { ...routes(() => TASK), 'GET /api/v1/hosts': API_FIXTURES['GET /api/v1/hosts']! });
    const table = await screen.findByRole('table', { name: 'Install tasks' });
    expect(within(table).getByRole('link', { name: '#1' }).getAttribute('href')).toBe('/netboot/tasks/1');
    expect(within(table).getByText('debian 12 x86_64')).toBeTruthy();
    await waitFor(() => expect(within(table).getByRole('link', { name: 'web01' }).getAttribute('href')).toBe('/hosts/1'));
    fireEvent.click(screen.getAllByLabelText('State').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'installing' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/netboot/tasks').at(-1)?.query.state).toBe('installing'));
  });
});
