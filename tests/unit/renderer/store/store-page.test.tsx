// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreConflict, StoreImport, StoreImportLocal } from '@contracts/community-store';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok, type Route } from '../fake-transport.js';
import { OPERATOR_SESSION, VIEWER_SESSION, callsTo, renderApp } from '../render-app.js';
import { PLAN } from './store-fixtures.js';

afterEach(cleanup);

const routes = API_FIXTURES;

const CONFLICTS: StoreConflict[] = [
  { key: 'script/ssh-keys', type: 'script', name: 'ssh-keys', existing_id: 4 },
  { key: 'bundle/debian-lab', type: 'bundle', name: 'Debian lab', existing_id: 2 },
];

/** 409 with the conflicts the request has not resolved yet, else the plan (dry run) or the result. */
function importRoute(): Route {
  return (body) => {
    const request = body as StoreImport | StoreImportLocal;
    const open = CONFLICTS.filter((conflict) => !request.resolutions?.[conflict.key]);
    if (open.length > 0) return { status: 409, body: { success: false, code: 'CONFLICT', error: `${open.length} items already exist`, details: open } };
    const action = (key: string) => ({ rename: 'renamed', skip: 'skipped', overwrite: 'overwritten' } as const)[request.resolutions?.[key] ?? 'rename'];
    return ok({
      dry_run: request.dry_run === true,
      items: [
        { type: 'script', store_id: 'ssh-keys', action: action('script/ssh-keys'), local_id: request.dry_run ? null : 4, name: 'ssh-keys' },
        { type: 'bundle', store_id: 'debian-lab', action: action('bundle/debian-lab'), local_id: null, name: 'Debian lab' },
      ],
    });
  };
}

describe('Store page', () => {
  it('lists the catalog with source, installed and update badges; a failed feed shows its error while the page works', async () => {
    const fake = renderApp('/store', routes);
    const table = await screen.findByRole('table', { name: 'Store catalog' });
    const bundle = within(table).getByRole('button', { name: 'Details of Debian lab' }).closest('tr')!;
    expect(within(bundle).getByText('built-in')).toBeTruthy();
    expect(within(bundle).queryByText('installed')).toBeNull();
    const script = within(table).getByRole('button', { name: 'Details of NTP client' }).closest('tr')!;
    expect(within(script).getByText('community')).toBeTruthy();
    expect(within(script).getByText('update available')).toBeTruthy();
    expect(within(script).getByRole('button', { name: 'Import NTP client' }).textContent).toBe('Import update');

    const sources = screen.getByRole('list', { name: 'Store sources' });
    const feed = within(sources).getByRole('listitem', { name: 'Source community: failed' });
    expect(within(feed).getByText('connect ECONNREFUSED: the feed did not answer in 10 s')).toBeTruthy();
    expect(within(sources).getByRole('listitem', { name: 'Source built-in: builtin' })).toBeTruthy();

    fireEvent.click(screen.getAllByLabelText('Type').find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Baseline' }));
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/store/catalog').at(-1)?.query).toEqual({ type: 'baseline', limit: '500' }));
    fireEvent.change(screen.getByLabelText('Search the store'), { target: { value: 'ntp' } });
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/store/catalog').at(-1)?.query).toEqual({ type: 'baseline', q: 'ntp', limit: '500' }));
  });

  it('shows an item in full: description, what it brings along and the payload', async () => {
    const fake = renderApp('/store', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Details of Debian lab' }));
    const drawer = await screen.findByRole('dialog', { name: 'Debian lab 1.2.0' });
    expect(await within(drawer).findByText('Everything a Debian lab machine needs.')).toBeTruthy();
    expect(within(drawer).getByText('script/ssh-keys')).toBeTruthy();
    expect(within(drawer).getByLabelText('Payload').textContent).toContain('"ssh-keys"');
    expect(callsTo(fake.calls, 'GET', '/store/items/bundle/debian-lab')[0]?.query).toEqual({ source: 'builtin' });
  });

  it('imports after a dry run, asking about every conflict (the import waits for a choice for each)', async () => {
    const fake = renderApp('/store', { ...routes, 'POST /api/v1/store/import': importRoute() }, { session: OPERATOR_SESSION });
    fireEvent.click(await screen.findByRole('button', { name: 'Import Debian lab' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Debian lab' });
    // The dry run found conflicts: nothing is decided for the user.
    const scriptChoice = await within(dialog).findByRole('radiogroup', { name: /Script “ssh-keys”/ });
    const bundleChoice = within(dialog).getByRole('radiogroup', { name: /Bundle “Debian lab”/ });
    expect(within(scriptChoice).getAllByRole('radio').some((radio) => (radio as HTMLInputElement).checked)).toBe(false);
    const next = within(dialog).getByRole('button', { name: 'Continue' });
    expect(next).toHaveProperty('disabled', true);
    fireEvent.click(within(scriptChoice).getByRole('radio', { name: 'Overwrite the existing one' }));
    expect(next).toHaveProperty('disabled', true);
    fireEvent.click(within(bundleChoice).getByRole('radio', { name: 'Skip (keep the existing one)' }));
    expect(next).toHaveProperty('disabled', false);
    fireEvent.click(next);

    // The plan with the choices, then the import.
    const plan = await within(dialog).findByRole('table', { name: 'What the import does' });
    expect(within(plan).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Scriptssh-keysoverwrite', 'BundleDebian labskip']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Debian lab' })).toBeNull());
    expect(await screen.findByText('Imported Debian lab: 1 item written.')).toBeTruthy();

    const bodies = callsTo(fake.calls, 'POST', '/store/import').map((call) => call.body);
    const resolutions = { 'script/ssh-keys': 'overwrite', 'bundle/debian-lab': 'skip' };
    expect(bodies).toEqual([
      { type: 'bundle', id: 'debian-lab', source: 'builtin', on_conflict: 'ask', resolutions: {}, dry_run: true },
      { type: 'bundle', id: 'debian-lab', source: 'builtin', on_conflict: 'ask', resolutions, dry_run: true },
      { type: 'bundle', id: 'debian-lab', source: 'builtin', on_conflict: 'ask', resolutions, dry_run: false },
    ]);
  });

  it('imports a local file: its text is posted, with the same check and conflict flow', async () => {
    const fake = renderApp('/store', { ...routes, 'POST /api/v1/store/import-local': importRoute() }, { session: OPERATOR_SESSION });
    const input = await screen.findByLabelText('Bundle file');
    const text = 'type: bundle\nid: my-lab\nitems: []\n';
    fireEvent.change(input, { target: { files: [new File([text], 'my-lab.yaml', { type: 'application/yaml' })] } });
    const dialog = await screen.findByRole('dialog', { name: 'Import my-lab.yaml' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Rename all' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await within(dialog).findByRole('table', { name: 'What the import does' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/store/import-local')).toHaveLength(3));
    const resolutions = { 'script/ssh-keys': 'rename', 'bundle/debian-lab': 'rename' };
    expect(callsTo(fake.calls, 'POST', '/store/import-local').at(-1)?.body).toEqual({ content: text, filename: 'my-lab.yaml', on_conflict: 'ask', resolutions, dry_run: false });
  });

  it('shows the server\'s message when the check fails, and imports straight from the plan when nothing conflicts', async () => {
    let calls = 0;
    renderApp(
      '/store',
      {
        ...routes,
        'POST /api/v1/store/import': (body) =>
          ++calls === 1
            ? { status: 502, body: { success: false, code: 'UPSTREAM_FAILED', error: 'feed community: the item\'s SHA-256 does not match its index' } }
            : ok({ ...PLAN, dry_run: (body as StoreImport).dry_run === true }),
      },
      { session: OPERATOR_SESSION },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Import NTP client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import NTP client' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain('the item\'s SHA-256 does not match its index');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    const plan = await within(dialog).findByRole('table', { name: 'What the import does' });
    expect(within(plan).getAllByText('create')).toHaveLength(2);
  });

  it('keeps the catalog usable for a viewer, without import controls', async () => {
    renderApp('/store', routes, { session: VIEWER_SESSION });
    await screen.findByRole('table', { name: 'Store catalog' });
    expect(screen.queryByRole('button', { name: /Import/ })).toBeNull();
    expect(screen.queryByLabelText('Bundle file')).toBeNull();
  });
});
