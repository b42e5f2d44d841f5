// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ValidationResult } from '@contracts/netboot';
import { ok, type Route } from '../fake-transport.js';
import { VIEWER_SESSION, callsTo, okList, renderApp } from '../render-app.js';
import { NETBOOT_FIXTURES, PRESETS, TEMPLATE, TEMPLATE_VERSIONS } from './netboot-fixtures.js';

vi.mock('../../../../src-renderer/src/editor/CodeEditor.js', () => import('../code-editor-stub.js'));

afterEach(cleanup);

const ISSUES: ValidationResult = {
  valid: false,
  issues: [
    { line: 2, column: 7, severity: 'error', message: 'unknown d-i question "netcfg/get_hostnam"' },
    { line: 3, column: null, severity: 'warning', message: 'the root password is empty' },
    { line: null, column: null, severity: 'error', message: 'no partitioning recipe' },
  ],
};

const routes: Record<string, Route> = { ...NETBOOT_FIXTURES, 'GET /api/v1/hosts': () => okList([]) };

describe('Answer template editor', () => {
  it('validates the edited content and shows each issue at its line', async () => {
    const fake = renderApp('/netboot/templates/1', { ...routes, 'POST /api/v1/netboot/answer-templates/validate': () => ok(ISSUES) });
    const editor = await screen.findByLabelText('Answer file template');
    fireEvent.change(editor, { target: { value: 'd-i debian-installer/locale string en_US\nd-i netcfg/get_hostnam string x\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'POST', '/netboot/answer-templates/validate')[0]?.body).toEqual({
        kind: 'preseed',
        content: 'd-i debian-installer/locale string en_US\nd-i netcfg/get_hostnam string x\n',
        variables: { locale: 'en_US.UTF-8' },
      }),
    );
    // The editor marks lines 2 and 3 (the issue without a line has no marker)…
    const markers = await screen.findByRole('list', { name: 'Answer file template line markers' });
    expect([...markers.querySelectorAll('li')].map((item) => [item.getAttribute('data-line'), item.getAttribute('data-severity'), item.textContent])).toEqual([
      ['2', 'error', 'unknown d-i question "netcfg/get_hostnam"'],
      ['3', 'warning', 'the root password is empty'],
    ]);
    // …and the list names every issue with its line.
    const list = screen.getByRole('list', { name: 'Validation issues' });
    expect(within(list).getByText('Line 2, column 7: unknown d-i question "netcfg/get_hostnam"')).toBeTruthy();
    expect(within(list).getByText('Line 3: the root password is empty')).toBeTruthy();
    expect(within(list).getByText('no partitioning recipe')).toBeTruthy();
    expect(screen.getByText('Validation: 2 errors, 1 warning')).toBeTruthy();
  });

  it('shows secrets as set, never their value, and sends only the changed ones', async () => {
    const fake = renderApp('/netboot/templates/1', { ...routes, 'PUT /api/v1/netboot/answer-templates/1': () => ok({ ...TEMPLATE, version: 3, secret_names: ['user_password'] }) });
    expect(await screen.findByLabelText('root_password is set')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove secret root_password' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add secret' }));
    fireEvent.change(screen.getByLabelText('Secret 1 name'), { target: { value: 'user_password' } });
    const value = screen.getByLabelText('Secret 1 value') as HTMLInputElement;
    expect(value.type).toBe('password');
    fireEvent.change(value, { target: { value: 's3cret' } });
    fireEvent.change(screen.getByLabelText('Version comment'), { target: { value: 'user account' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/netboot/answer-templates/1')[0]?.body).toEqual({
        name: 'Debian lab',
        kind: 'preseed',
        description: 'Lab machines',
        content: TEMPLATE.content,
        variables: { locale: 'en_US.UTF-8' },
        secrets: { root_password: null, user_password: 's3cret' },
        comment: 'user account',
      }),
    );
  });

  it('compares a version with the current content and rolls back', async () => {
    const fake = renderApp('/netboot/templates/1?tab=versions', {
      ...routes,
      'GET /api/v1/netboot/answer-templates/1/versions/1': () => ok({ ...TEMPLATE_VERSIONS[1], diff_to_current: '--- v1\n+++ current\n@@ -1,1 +1,1 @@\n-d-i debian-installer/locale string en_US\n+d-i debian-installer/locale string {{ variables.locale }}\n' }),
      'POST /api/v1/netboot/answer-templates/1/rollback/1': () => ok({ ...TEMPLATE, version: 3 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'View version 1' }));
    const diff = await screen.findByRole('region', { name: 'Changes from version 1 to the current version 2' });
    expect(within(diff).getByText('d-i debian-installer/locale string {{ variables.locale }}')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('button', { name: 'Roll back to version 2' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Roll back to version 1' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Roll back to version 1?' })).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/netboot/answer-templates/1/rollback/1')).toHaveLength(1));
  });

  it('creates a template from a preset and opens it', async () => {
    const fake = renderApp('/netboot/templates', {
      ...routes,
      'POST /api/v1/netboot/answer-templates': (body) => ({ status: 201, body: { success: true, data: { ...TEMPLATE, id: 3, ...(body as object) } } }),
      'GET /api/v1/netboot/answer-templates/3': () => ok({ ...TEMPLATE, id: 3, name: 'Rocky servers', kind: 'kickstart' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New template' }));
    const dialog = await screen.findByRole('dialog', { name: 'New answer template' });
    fireEvent.click(within(dialog).getAllByLabelText(/^Preset/).find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: PRESETS[1]!.name }));
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Rocky servers' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create template' }));
    await waitFor(() => expect(callsTo(fake.calls, 'POST', '/netboot/answer-templates')[0]?.body).toEqual({ name: 'Rocky servers', preset: 'rocky-kickstart' }));
    expect(await screen.findByRole('heading', { name: 'Rocky servers', level: 1 })).toBeTruthy();
  });

  it('shows a viewer the template read-only', async () => {
    renderApp('/netboot/templates/1', routes, { session: VIEWER_SESSION });
    expect(((await screen.findByLabelText('Answer file template')) as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: /Save|Delete|Validate|Replace|Remove/ })).toBeNull();
  });
});
