// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnswerTemplate, InstallTask } from '@contracts/netboot';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';
import { TASK, TEMPLATE } from './netboot-fixtures.js';

vi.mock('../../../../src-renderer/src/editor/CodeEditor.js', () => import('../code-editor-stub.js'));

afterEach(cleanup);

const KICKSTART: AnswerTemplate = { ...TEMPLATE, id: 2, name: 'Rocky lab', kind: 'kickstart', secret_names: [] };
const DONE: InstallTask = { ...TASK, state: 'done', finished_at: '2024-05-01T01:00:00Z' };

/** The input of a labelled Mantine field (a Select's label also names its listbox). */
function inputOf(container: HTMLElement, label: RegExp | string): HTMLInputElement {
  const input = within(container).getAllByLabelText(label).find((element): element is HTMLInputElement => element instanceof HTMLInputElement);
  if (!input) throw new Error(`no input labelled ${String(label)}`);
  return input;
}

function choose(label: string | RegExp, option: string) {
  const input = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT');
  if (!input) throw new Error(`no input labelled ${String(label)}`);
  fireEvent.click(input);
  return screen.findByRole('option', { name: option }).then((element) => fireEvent.click(element));
}

const routes = (tasks: InstallTask[]): Record<string, Route> => ({
  ...API_FIXTURES,
  'GET /api/v1/netboot/tasks': (_body, query) => okList(query.host_id === '1' ? tasks : []),
  'GET /api/v1/netboot/answer-templates': () => okList([TEMPLATE, KICKSTART]),
});

describe('Install an OS from the host page', () => {
  it('creates a task preset to the host with the entry, a template of its kind and variables', async () => {
    const fake = renderApp('/hosts/1', {
      ...routes([DONE]),
      'POST /api/v1/netboot/tasks': (body) => ({ status: 201, body: { success: true, data: { ...TASK, id: 5, ...(body as object), state: 'pending', timeline: [] } } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Install an OS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install an operating system' });
    // The host is fixed; pick the entry: its default version and first architecture follow, with where the files are.
    await waitFor(() => expect(inputOf(dialog, /^Host/).value).toBe('web01 (52:54:00:00:00:01)'));
    await choose(/^Operating system/, 'Debian');
    await waitFor(() => expect(inputOf(dialog, 'Version').value).toBe('12 (bookworm)'));
    expect(inputOf(dialog, 'Architecture').value).toBe('x86_64 (bios, uefi) · remote');
    expect(within(dialog).getByText('remote')).toBeTruthy();
    // Only preseed templates are offered for Debian; one is required.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create install task' }));
    expect(await within(dialog).findByText(/Choose a Debian preseed template/)).toBeTruthy();
    fireEvent.click(within(dialog).getAllByLabelText(/^Answer template/).find((element) => element.tagName === 'INPUT')!);
    expect(screen.queryByRole('option', { name: 'Rocky lab' })).toBeNull();
    fireEvent.click(await screen.findByRole('option', { name: 'Debian lab' }));
    // A variable name the contract rejects is caught before sending.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add variable' }));
    fireEvent.change(within(dialog).getByLabelText('Variable 1 name'), { target: { value: 'Disk' } });
    fireEvent.change(within(dialog).getByLabelText('Variable 1 value'), { target: { value: '/dev/vda' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create install task' }));
    expect(await within(dialog).findByText(/Lowercase letters, digits and _/)).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/netboot/tasks')).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Variable 1 name'), { target: { value: 'disk' } });
    await choose('After the install', "Boot the host's profile again");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create install task' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'POST', '/netboot/tasks')[0]?.body).toEqual({
        host_id: 1,
        distro: 'debian',
        version: '12',
        arch: 'x86_64',
        template_id: 1,
        after_install: 'host_profile',
        variables: { disk: '/dev/vda' },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Install an operating system' })).toBeNull());
  });

  it("shows the host's active task, and none once it is done", async () => {
    renderApp('/hosts/1', routes([TASK]));
    const card = await screen.findByRole('region', { name: 'Install in progress' });
    expect(within(card).getByRole('link', { name: 'Task #1' }).getAttribute('href')).toBe('/netboot/tasks/1');
    expect(within(card).getByText('booting')).toBeTruthy();
    expect(within(card).getByText(/Last step: Boot script/)).toBeTruthy();
    cleanup();
    renderApp('/hosts/1', routes([DONE]));
    await screen.findByRole('button', { name: 'Install an OS' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Install in progress' })).toBeNull());
  });

  it('offers a viewer no install', async () => {
    renderApp('/hosts/1', routes([]), { session: VIEWER_SESSION });
    await screen.findByRole('heading', { name: 'web01', level: 1 });
    expect(screen.queryByRole('button', { name: 'Install an OS' })).toBeNull();
  });

  it('creates a task for a bare MAC from the tasks page and opens it', async () => {
    const fake = renderApp('/netboot/tasks', {
      ...routes([]),
      'POST /api/v1/netboot/tasks': (body) => ({ status: 201, body: { success: true, data: { ...TASK, id: 6, host_id: null, ...(body as object), state: 'pending', timeline: [] } } }),
      'GET /api/v1/netboot/tasks/6': () => ok({ ...TASK, id: 6, host_id: null, mac: '52:54:00:aa:bb:cc', distro: 'memtest86plus', version: '7', template_id: null, state: 'pending', timeline: [] }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New install task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install an operating system' });
    fireEvent.click(within(dialog).getByText('A MAC address'));
    fireEvent.change(within(dialog).getByLabelText(/^MAC address/), { target: { value: '52:54:00:aa:bb:cc' } });
    await choose(/^Operating system/, 'memtest86+');
    expect(await within(dialog).findByText('memtest86+ runs without an answer file.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create install task' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'POST', '/netboot/tasks')[0]?.body).toEqual({ mac: '52:54:00:aa:bb:cc', distro: 'memtest86plus', version: '7', arch: 'x86_64', template_id: null, after_install: 'local_disk' }),
    );
    expect(await screen.findByRole('heading', { name: 'Install task #6', level: 1 })).toBeTruthy();
  });
});
