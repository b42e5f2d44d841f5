// @vitest-environment jsdom
import './dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProfileView, ScriptVersionView as ScriptVersion } from '@contracts/profiles';
import { ok, type Route } from './fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from './render-app.js';

vi.mock('../../../src-renderer/src/editor/CodeEditor.js', () => import('./code-editor-stub.js'));

afterEach(cleanup);

const PROFILE: ProfileView = {
  id: 4,
  name: 'Rescue',
  description: 'Rescue shell',
  boot_type: 'ipxe_script',
  script: '#!ipxe\necho rescue v3\nshell\n',
  linux: null,
  chain: null,
  sanboot: null,
  menu: null,
  variables: {},
  default_for_groups: [],
  script_version: 3,
  created_at: '2024-05-01T00:00:00Z',
  updated_at: '2024-05-02T00:00:00Z',
  used_by: { assigned: 2, by_group: 1 },
};
const version = (id: number, number: number): ScriptVersion => ({
  id,
  profile_id: 4,
  version: number,
  boot_type: 'ipxe_script',
  script: `#!ipxe\necho rescue v${number}\nshell\n`,
  author: 'admin',
  comment: number === 1 ? 'created' : 'updated',
  created_at: `2024-05-0${number}T00:00:00Z`,
});
const VERSIONS = [version(12, 3), version(11, 2), version(10, 1)];
const DIFF = '--- profile-4.ipxe\tversion 2\n+++ profile-4.ipxe\tversion 3\n@@ -1,3 +1,3 @@\n #!ipxe\n-echo rescue v2\n+echo rescue v3\n shell\n';

const routes: Record<string, Route> = {
  'GET /api/v1/profiles': () => okList([PROFILE]),
  'GET /api/v1/profiles/4': () => ok(PROFILE),
  'GET /api/v1/profiles/4/script-versions': () => okList(VERSIONS),
  'GET /api/v1/profiles/4/script-diff/11': (_body, query) => ok({ profile_id: 4, from_version: 2, to_version: query.to === '12' ? 3 : 3, diff: DIFF, additions: 1, deletions: 1 }),
};

describe('Profiles', () => {
  it('lists profiles with the boot type filter on the server', async () => {
    const fake = renderApp('/profiles', routes);
    expect(await screen.findByRole('link', { name: 'Rescue' })).toBeTruthy();
    fireEvent.click(screen.getAllByLabelText('Boot type').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Linux kernel' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/profiles').at(-1)?.query.boot_type).toBe('linux'));
  });

  it('says how many hosts use each profile, linking to those assigned it', async () => {
    renderApp('/profiles', { ...routes, 'GET /api/v1/profiles': () => okList([PROFILE, { ...PROFILE, id: 5, name: 'Memtest', used_by: { assigned: 0, by_group: 0 } }]) });
    const table = await screen.findByRole('table', { name: 'Boot profiles' });
    const rescue = within(table).getByRole('link', { name: 'Rescue' }).closest('tr')!;
    expect(within(rescue).getByRole('link', { name: '2 hosts' }).getAttribute('href')).toBe('/hosts?profile_id=4');
    expect(rescue.textContent).toContain('2 hosts + 1 host by group');
    const memtest = within(table).getByRole('link', { name: 'Memtest' }).closest('tr')!;
    expect(within(memtest).getByText('no host')).toBeTruthy();
  });

  it('creates an iPXE script profile; a template error shows at the script', async () => {
    let attempts = 0;
    const fake = renderApp('/profiles/new', {
      ...routes,
      'POST /api/v1/profiles': (body) =>
        ++attempts === 1
          ? { status: 400, body: { success: false, code: 'VALIDATION_FAILED', error: 'body.script: line 2: undefined filter: shout', details: [{ field: 'body.script', message: 'line 2: undefined filter: shout' }] } }
          : { status: 201, body: { success: true, data: { ...PROFILE, id: 5, ...(body as object), script_version: 1 } } },
      'GET /api/v1/profiles/5': () => ok({ ...PROFILE, id: 5, name: 'Memtest', script_version: 1 }),
      'GET /api/v1/profiles/5/script-versions': () => okList([version(20, 1)]),
    });
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Memtest' } });
    fireEvent.change(screen.getByLabelText('Script template'), { target: { value: '#!ipxe\necho {{ host.hostname | shout }}\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect((await screen.findByRole('alert')).textContent).toBe('line 2: undefined filter: shout');
    fireEvent.change(screen.getByLabelText('Script template'), { target: { value: '#!ipxe\necho {{ host.hostname }}\n' } });
    fireEvent.change(screen.getByLabelText('Version comment'), { target: { value: 'first try' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(await screen.findByRole('heading', { name: 'Memtest' })).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/profiles').at(-1)?.body).toEqual({
      name: 'Memtest',
      boot_type: 'ipxe_script',
      description: '',
      variables: {},
      default_for_groups: [],
      script: '#!ipxe\necho {{ host.hostname }}\n',
      comment: 'first try',
    });
  });

  it('shows the warnings a save answers (a kernel missing from the boot root) on the new profile\'s page until dismissed', async () => {
    const warning = 'linux.kernel: debian/linux does not exist in the boot root (/data/boot); machines booting this profile will fail to fetch it';
    renderApp('/profiles/new', {
      ...routes,
      'POST /api/v1/profiles': (body) => ({ status: 201, body: { success: true, data: { ...PROFILE, id: 5, ...(body as object), script_version: 1, warnings: [warning] } } }),
      'GET /api/v1/profiles/5': () => ok({ ...PROFILE, id: 5, name: 'Missing kernel', script_version: 1 }),
      'GET /api/v1/profiles/5/script-versions': () => okList([]),
    });
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Missing kernel' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(await screen.findByText('Saved, but the boot root lacks files this profile names')).toBeTruthy();
    expect(screen.getByText(warning)).toBeTruthy();
    await screen.findByRole('heading', { name: 'Missing kernel' });
    expect(screen.getByText(warning)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(warning)).toBeNull();
  });

  it('shows the settings of the chosen boot type', async () => {
    renderApp('/profiles/new', routes);
    await screen.findByLabelText('Script template');
    fireEvent.click(screen.getAllByLabelText('Boot type').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Linux kernel' }));
    expect(await screen.findByLabelText(/^Kernel\s*\*?$/)).toBeTruthy();
    expect(screen.queryByLabelText('Script template')).toBeNull();
  });

  it('compares two versions and rolls back after confirmation', async () => {
    const fake = renderApp('/profiles/4?tab=versions', { ...routes, 'POST /api/v1/profiles/4/script-rollback/10': () => ok({ ...PROFILE, script_version: 4 }) });
    const diff = await screen.findByRole('region', { name: 'Changes from version 2 to version 3' });
    expect(within(diff).getByText('echo rescue v3')).toBeTruthy();
    expect(within(diff).getByText('removed:', { exact: false })).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/profiles/4/script-diff/11')[0]?.query.to).toBe('12');
    // The current version offers no rollback.
    expect(screen.queryByRole('button', { name: 'Roll back to version 3' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Roll back to version 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    fireEvent.change(within(dialog).getByLabelText('Comment (optional)'), { target: { value: 'v2 broke UEFI' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/profiles/4/script-rollback/10')[0]?.body).toEqual({ comment: 'v2 broke UEFI' }));
  });

  it('shows a viewer the profile read-only', async () => {
    renderApp('/profiles/4', routes, { session: VIEWER_SESSION });
    expect(await screen.findByLabelText('Script template')).toBeTruthy();
    expect((screen.getByLabelText('Script template') as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: /Save|Delete|Discard/ })).toBeNull();
  });
});
