// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KitImport, KitImportResult } from '@contracts/kit';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok, type Route } from '../fake-transport.js';
import { OPERATOR_SESSION, callsTo, renderApp } from '../render-app.js';

afterEach(cleanup);
beforeEach(() => {
  // jsdom has no object URLs: the download is an anchor click on one.
  URL.createObjectURL = vi.fn(() => 'blob:kit');
  URL.revokeObjectURL = vi.fn();
});

const PLAN: KitImportResult = {
  dry_run: true,
  conflicts: 2,
  warnings: [],
  items: [
    { key: 'hosts/52:54:00:aa:00:01', section: 'hosts', name: 'node1', action: 'created', existing_id: null, local_id: null, local_name: 'node1', can_rename: false, changes: [] },
    { key: 'profiles/Debian 12', section: 'profiles', name: 'Debian 12', action: 'conflict', existing_id: 3, local_id: null, local_name: 'Debian 12', can_rename: true, changes: [{ path: 'linux.cmdline', from: 'auto=true', to: 'auto=true priority=critical' }] },
    { key: 'settings/general', section: 'settings', name: 'general', action: 'conflict', existing_id: null, local_id: null, local_name: 'general', can_rename: false, changes: [{ path: 'server_name', from: 'bootwright', to: 'lab-a' }] },
    { key: 'scripts/Docker', section: 'scripts', name: 'Docker', action: 'unchanged', existing_id: 1, local_id: null, local_name: 'Docker', can_rename: true, changes: [] },
  ],
};

function importRoute(): Route {
  return (body) => {
    const request = body as KitImport;
    if (request.dry_run) return ok(PLAN);
    const open = PLAN.items.filter((item) => item.action === 'conflict' && !request.resolutions?.[item.key]);
    if (open.length > 0) return { status: 409, body: { success: false, code: 'CONFLICT', error: 'conflicts', details: open.map((item) => ({ field: item.key, message: 'exists', key: item.key, type: item.section, name: item.name, existing_id: 3 })) } };
    return ok({ ...PLAN, dry_run: false, conflicts: 0 });
  };
}

describe('kit page', () => {
  it('is for admins only', async () => {
    renderApp('/kit', API_FIXTURES, { session: OPERATOR_SESSION });
    expect(await screen.findByText('Not available with your role')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export kit' })).toBeNull();
  });

  it('exports the chosen sections with the passphrase and shows what was left out', async () => {
    const kit = 'format: bootwright-kit\nversion: 1\nwarnings:\n  - 1 secret(s) of bmc_configs left out: the export had no passphrase\nsections: {}\n';
    const fake = renderApp('/kit', { ...API_FIXTURES, 'POST /api/v1/kit/export': () => ({ status: 200, body: kit }) });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'WOL schedules' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export kit' }));
    await screen.findByText(/bmc_configs left out/);
    const body = callsTo(fake.calls, 'POST', '/kit/export')[0]?.body as { include: string[]; passphrase?: string };
    expect(body.include).not.toContain('wol_schedules');
    expect(body.passphrase).toBeUndefined();
    fireEvent.change(screen.getByLabelText('Passphrase', { exact: true }), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export kit' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/kit/export')).toHaveLength(2));
    expect(callsTo(fake.calls, 'POST', '/kit/export')[1]?.body).toMatchObject({ passphrase: 'correct horse' });
  });

  it('imports after a dry run showing the diff, with a choice for every conflict', async () => {
    const fake = renderApp('/kit', { ...API_FIXTURES, 'POST /api/v1/kit/import': importRoute() });
    const input = await screen.findByLabelText('Kit file');
    fireEvent.change(input, { target: { files: [new File(['format: bootwright-kit\n'], 'lab.yaml', { type: 'application/yaml' })] } });
    await screen.findByText('lab.yaml');
    fireEvent.change(screen.getByLabelText(/Passphrase of the kit/), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    const table = await screen.findByRole('table', { name: 'What the import changes' });
    expect(within(table).getByText('linux.cmdline: auto=true → auto=true priority=critical')).toBeTruthy();
    expect(within(table).queryByText('Docker')).toBeNull();
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect((importButton as HTMLButtonElement).disabled).toBe(true);
    // A settings part cannot be renamed: no such choice.
    const general = within(table).getByRole('radiogroup', { name: 'What to do with general' });
    expect(within(general).queryByLabelText('Add under a new name')).toBeNull();
    fireEvent.click(within(general).getByLabelText('Keep this server’s'));
    expect((importButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(within(table).getByRole('radiogroup', { name: 'What to do with Debian 12' })).getByLabelText('Add under a new name'));
    expect((importButton as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(importButton);
    await screen.findByText(/written all together/);
    const last = callsTo(fake.calls, 'POST', '/kit/import').at(-1)?.body as KitImport;
    expect(last).toMatchObject({ dry_run: false, passphrase: 'correct horse', on_conflict: 'ask', resolutions: { 'settings/general': 'skip', 'profiles/Debian 12': 'rename' } });
  });
});
