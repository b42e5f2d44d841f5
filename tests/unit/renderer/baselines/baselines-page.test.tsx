// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';
import { API_FIXTURES } from '../api-fixtures.js';
import { ASSIGNED, BASELINE } from './baselines-fixtures.js';

afterEach(cleanup);

const routes = API_FIXTURES;

/** Opens a Mantine Select by its label and picks an option. */
async function choose(label: string, option: string) {
  fireEvent.click(screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT')!);
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('Baselines list', () => {
  it('shows the OS family, the script count, who it is assigned to and the default badge; search goes to the server', async () => {
    const fake = renderApp('/baselines', routes);
    const table = await screen.findByRole('table', { name: 'Baselines' });
    const row = within(table).getByRole('link', { name: 'Lab Linux' }).closest('tr')!;
    expect(within(row).getByText('default')).toBeTruthy();
    expect(within(row).getByText('Linux')).toBeTruthy();
    expect(within(row).getByText('2')).toBeTruthy();
    expect(within(row).getByText('1 host · group lab · tags rack1, rack2')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search baselines'), { target: { value: 'lab' } });
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/baselines').at(-1)?.query.q).toBe('lab'));
  });

  it('answers "which baseline applies?" for a MAC with the rule, the reason and the rendered scripts', async () => {
    const fake = renderApp('/baselines', routes);
    fireEvent.change(await screen.findByLabelText('MAC address'), { target: { value: ' 52:54:00:00:00:01 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    const result = await screen.findByRole('region', { name: 'Lookup result' });
    expect(within(result).getByText('Rule: Group')).toBeTruthy();
    expect(within(result).getByText('group "lab"')).toBeTruthy();
    expect(within(result).getByRole('link', { name: 'Lab Linux' }).getAttribute('href')).toBe('/baselines/1');
    expect(within(result).getByText('ssh-keys')).toBeTruthy();
    expect(within(result).getByText('#!/bin/sh echo admin', { normalizer: (text) => text.replace(/\s+/g, ' ').trim() })).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/baselines/assigned').at(-1)?.query).toEqual({ mac: '52:54:00:00:00:01' });
  });

  it('says so when no baseline applies to a host', async () => {
    const fake = renderApp('/baselines', {
      ...routes,
      'GET /api/v1/baselines/assigned': () => ok({ ...ASSIGNED, baseline: null, rule: 'none', reason: 'no host, group, tag, task, profile or default matched', scripts: [] }),
    });
    fireEvent.click(await screen.findByRole('radio', { name: 'By host' }));
    await choose('Host', 'web01 (52:54:00:00:00:01)');
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    const result = await screen.findByRole('region', { name: 'Lookup result' });
    expect(within(result).getByText('No baseline applies')).toBeTruthy();
    expect(within(result).getByText('Rule: None')).toBeTruthy();
    expect(callsTo(fake.calls, 'GET', '/baselines/assigned').at(-1)?.query).toEqual({ host_id: '1' });
  });
});

describe('Baseline editor', () => {
  it('creates a baseline from scripts that fit its OS family, with overrides, order and assignment; server field errors show at their fields', async () => {
    let attempts = 0;
    const fake = renderApp('/baselines/new', {
      ...routes,
      'POST /api/v1/baselines': (body) =>
        ++attempts === 1
          ? {
              status: 400,
              body: {
                success: false,
                code: 'VALIDATION_FAILED',
                error: 'body.scripts.0.variables.server: must not be empty (and 1 more)',
                details: [
                  { field: 'body.scripts.0.variables.server', message: 'must not be empty' },
                  { field: 'body.assign.groups', message: 'group "lab" already has baseline "Lab Linux"' },
                ],
              },
            }
          : { status: 201, body: { success: true, data: { ...BASELINE, id: 7, ...(body as object), scripts: [], assign: BASELINE.assign } } },
      'GET /api/v1/baselines/7': () => ok({ ...BASELINE, id: 7, name: 'Edge nodes' }),
    });
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Edge nodes' } });

    // The picker offers Linux scripts and those for any OS, not Windows ones.
    fireEvent.click(screen.getAllByLabelText('Script to add').find((element) => element.tagName === 'INPUT')!);
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(offered).toEqual(['ssh-keys (sh)', 'ntp (sh)', 'hello (powershell)']);
    fireEvent.click(screen.getByRole('option', { name: 'ssh-keys (sh)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add script' }));
    await choose('Script to add', 'ntp (sh)');
    fireEvent.click(screen.getByRole('button', { name: 'Add script' }));

    // The declared defaults are shown beside each override.
    const user = screen.getByLabelText('Step 1 variable user');
    expect(user.closest('.mantine-InputWrapper-root')?.textContent).toContain('Default: root');
    fireEvent.change(user, { target: { value: 'deploy' } });
    fireEvent.change(screen.getByLabelText('Step 2 variable server'), { target: { value: 'ntp.lab' } });
    fireEvent.click(screen.getByLabelText('Step 2 continues on error'));
    fireEvent.change(screen.getByLabelText('Step 2 timeout in seconds'), { target: { value: '90' } });
    // ntp first, then ssh-keys.
    fireEvent.click(screen.getByRole('button', { name: 'Move step 2 up' }));
    expect(within(screen.getByRole('list', { name: 'Baseline scripts' })).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['Step 1: ntp', 'Step 2: ssh-keys']);

    const groups = screen.getAllByLabelText('Host groups').find((element) => element.tagName === 'INPUT')!;
    // Mantine takes typing only into the focused input (anything else is autofill).
    groups.focus();
    fireEvent.change(groups, { target: { value: 'lab' } });
    fireEvent.keyDown(groups, { key: 'Enter' });
    fireEvent.click(screen.getByRole('switch', { name: /Default baseline/ }));

    fireEvent.click(screen.getByRole('button', { name: 'Create baseline' }));
    // ntp moved to the top: the API's scripts.0 is the editor's first step.
    await waitFor(() => expect(screen.getByLabelText('Step 1 variable server').closest('.mantine-InputWrapper-root')?.textContent).toContain('must not be empty'));
    expect(screen.getAllByLabelText('Host groups').find((element) => element.tagName === 'INPUT')?.closest('.mantine-InputWrapper-root')?.textContent).toContain('group "lab" already has baseline "Lab Linux"');

    fireEvent.click(screen.getByRole('button', { name: 'Create baseline' }));
    expect(await screen.findByRole('heading', { name: 'Edge nodes' })).toBeTruthy();
    expect(callsTo(fake.calls, 'POST', '/baselines').at(-1)?.body).toEqual({
      name: 'Edge nodes',
      description: '',
      os_family: 'linux',
      assign: { host_ids: [], groups: ['lab'], tags: [], profile_ids: [], task_ids: [], is_default: true },
      scripts: [
        { script_id: 2, continue_on_error: true, variables: { server: 'ntp.lab' }, timeout_seconds: 90 },
        { script_id: 1, continue_on_error: false, variables: { user: 'deploy' } },
      ],
    });
  });

  it('edits a baseline: overrides beside the defaults, reorder, remove, and one PUT with every field', async () => {
    const fake = renderApp('/baselines/1', { ...routes, 'PUT /api/v1/baselines/1': (body) => ok({ ...BASELINE, ...(body as object), scripts: BASELINE.scripts }) });
    const user = await screen.findByLabelText('Step 1 variable user');
    expect((user as HTMLInputElement).value).toBe('admin');
    expect(((await screen.findByLabelText('Step 1 variable key_url')) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Step 2 continues on error') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Move step 1 up' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Move step 1 down' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove step 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save baseline' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/baselines/1')).toHaveLength(1));
    expect(callsTo(fake.calls, 'PUT', '/baselines/1')[0]?.body).toEqual({
      name: 'Lab Linux',
      description: 'What every lab machine gets',
      os_family: 'linux',
      assign: { host_ids: [1], groups: ['lab'], tags: ['rack1', 'rack2'], profile_ids: [], task_ids: [], is_default: true },
      scripts: [{ script_id: 1, continue_on_error: false, variables: { user: 'admin' }, timeout_seconds: 600 }],
    });
  });

  it('warns at the steps whose script no longer fits after the OS family changes, and offers that family\'s scripts', async () => {
    renderApp('/baselines/1', routes);
    await screen.findByLabelText('Step 1 variable key_url');
    expect(screen.queryByText(/the server refuses it here/)).toBeNull();
    await choose('OS family', 'Windows');
    expect(screen.getAllByText('This script is for Linux, not Windows: the server refuses it here.')).toHaveLength(2);
    fireEvent.click(screen.getAllByLabelText('Script to add').find((element) => element.tagName === 'INPUT')!);
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['windows-updates (powershell)', 'hello (powershell)']);
  });

  it('shows a viewer the baseline read-only', async () => {
    renderApp('/baselines/1', routes, { session: VIEWER_SESSION });
    expect(await screen.findByLabelText('Step 1 variable user')).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: /Save|Delete|Add script|Move|Remove/ })).toBeNull();
  });

  it('reports a script list that fails to load instead of an empty picker', async () => {
    renderApp('/baselines/new', { ...routes, 'GET /api/v1/scripts': () => ({ status: 503, body: { success: false, code: 'UNAVAILABLE', error: 'scripts are loading' } }) });
    expect((await screen.findByText('scripts are loading')).closest('[role=alert]')).toBeTruthy();
  });

  it('lists no baseline with a hint to create or import one', async () => {
    renderApp('/baselines', { ...routes, 'GET /api/v1/baselines': () => okList([]) });
    expect(await screen.findByText(/No baselines yet/)).toBeTruthy();
  });
});
