// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScriptCheck } from '@contracts/scripts';
import { ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, renderApp } from '../render-app.js';
import { SCRIPT, SCRIPT_VERSIONS, SCRIPTS_FIXTURES } from './scripts-fixtures.js';

vi.mock('../../../../src-renderer/src/editor/CodeEditor.js', () => import('../code-editor-stub.js'));

afterEach(cleanup);

const routes: Record<string, Route> = { ...SCRIPTS_FIXTURES };

const ISSUES: ScriptCheck = {
  ok: false,
  checker: 'bash -n',
  issues: [
    { severity: 'warning', line: 1, message: '"other" is not a declared variable (it renders empty); declare it under variables' },
    { severity: 'error', line: 4, message: "syntax error near unexpected token `fi'" },
  ],
};

describe('Scripts pages', () => {
  it('lists scripts and filters by kind and OS family', async () => {
    const fake = renderApp('/scripts?kind=powershell&os_family=windows', routes);
    expect(await screen.findByRole('link', { name: 'Install Docker' })).toBeTruthy();
    await waitFor(() => expect(callsTo(fake.calls, 'GET', '/scripts').at(-1)?.query).toMatchObject({ kind: 'powershell', os_family: 'windows' }));
  });

  it('creates a script of the chosen kind from its starter and opens it', async () => {
    const fake = renderApp('/scripts', {
      ...routes,
      'POST /api/v1/scripts': (body) => ({ status: 201, body: { success: true, data: { ...SCRIPT, id: 3, version: 1, ...(body as object) } } }),
      'GET /api/v1/scripts/3': () => ok({ ...SCRIPT, id: 3, name: 'Hardening', kind: 'sh', version: 1 }),
      'GET /api/v1/scripts/3/versions': () => ok([]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New script' }));
    const dialog = await screen.findByRole('dialog', { name: 'New script' });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Hardening' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create script' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/scripts')[0]?.body).toMatchObject({ name: 'Hardening', kind: 'sh', content: expect.stringContaining('#!/bin/sh') }));
    expect(await screen.findByRole('heading', { name: 'Hardening', level: 1 })).toBeTruthy();
  });

  it('checks the edited content with its variables and lists the issues at their lines', async () => {
    const fake = renderApp('/scripts/1', { ...routes, 'POST /api/v1/scripts/check': () => ok(ISSUES) });
    const editor = await screen.findByLabelText('Content');
    fireEvent.change(editor, { target: { value: 'echo {{ other }}\nif true; then\n  echo\nfi fi\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'POST', '/scripts/check')[0]?.body).toEqual({ kind: 'bash', content: 'echo {{ other }}\nif true; then\n  echo\nfi fi\n', variables: { docker_version: '24.0' } }),
    );
    const markers = await screen.findByRole('list', { name: 'Content line markers' });
    expect([...markers.querySelectorAll('li')].map((item) => [item.getAttribute('data-line'), item.getAttribute('data-severity')])).toEqual([
      ['1', 'warning'],
      ['4', 'error'],
    ]);
    const list = screen.getByRole('list', { name: 'Check issues' });
    expect(within(list).getByText("Line 4: syntax error near unexpected token `fi'")).toBeTruthy();
    expect(screen.getByText('Check (bash -n): 1 error, 1 warning')).toBeTruthy();
  });

  it('saves the draft with its variables and shows the server\'s content errors on the editor', async () => {
    const fake = renderApp('/scripts/1', {
      ...routes,
      'PUT /api/v1/scripts/1': () => ({
        status: 400,
        body: { success: false, code: 'VALIDATION_FAILED', error: 'body.content: line 3: Syntax error', details: [{ field: 'body.content', message: 'line 3: Syntax error (sh -n (dash))' }] },
      }),
    });
    await screen.findByLabelText('Content');
    fireEvent.change(screen.getByLabelText('Variable 1 value'), { target: { value: '25.0' } });
    fireEvent.change(screen.getByLabelText('Version comment'), { target: { value: 'newer docker' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save script' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/scripts/1')[0]?.body).toEqual({
        name: 'Install Docker',
        kind: 'bash',
        os_family: 'linux',
        description: SCRIPT.description,
        content: SCRIPT.content,
        variables: { docker_version: '25.0' },
        comment: 'newer docker',
      }),
    );
    expect(await screen.findByText('line 3: Syntax error (sh -n (dash))')).toBeTruthy();
  });

  it('offers a forced delete when baselines use the script', async () => {
    let attempts = 0;
    const fake = renderApp('/scripts/1', {
      ...routes,
      'DELETE /api/v1/scripts/1': (_body, query) => {
        attempts += 1;
        return query.force === 'true' ? ok(SCRIPT) : { status: 409, body: { success: false, code: 'CONFLICT', error: 'in use', details: [{ field: 'used_by', message: 'baseline "Web" (id 2)' }] } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete script' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete script Install Docker?' })).getByRole('button', { name: 'Delete script' }));
    const inUse = await screen.findByRole('dialog', { name: 'Install Docker is in use' });
    expect(within(inUse).getByText(/baseline "Web" \(id 2\)/)).toBeTruthy();
    fireEvent.click(within(inUse).getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(attempts).toBe(2));
    expect(callsTo(fake.calls, 'DELETE', '/scripts/1').map((call) => call.query)).toEqual([{}, { force: 'true' }]);
  });

  it('compares a version with the current content and rolls back', async () => {
    const fake = renderApp('/scripts/1?tab=versions', {
      ...routes,
      'GET /api/v1/scripts/1/versions/1': () => ok({ ...SCRIPT_VERSIONS[1], diff_to_current: '--- v1\n+++ current\n@@ -1,2 +1,3 @@\n #!/bin/bash\n+set -euo pipefail\n-apt-get install -y docker.io\n+apt-get install -y docker.io={{ docker_version }}\n' }),
      'POST /api/v1/scripts/1/versions/1/rollback': () => ok({ ...SCRIPT, version: 3 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'View version 1' }));
    const diff = await screen.findByRole('region', { name: 'Changes from version 1 to the current version 2' });
    expect(within(diff).getByText('set -euo pipefail')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('button', { name: 'Roll back to version 2' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Roll back to version 1' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Roll back to version 1?' })).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/scripts/1/versions/1/rollback')).toHaveLength(1));
  });

  it('shows a viewer the script read-only', async () => {
    renderApp('/scripts/1', routes, { session: VIEWER_SESSION });
    expect(((await screen.findByLabelText('Content')) as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: /Save|Delete|Check/ })).toBeNull();
  });
});
