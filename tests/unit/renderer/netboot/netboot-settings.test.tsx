// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsDefaults } from '@contracts/settings';
import { API_FIXTURES } from '../api-fixtures.js';
import { ok } from '../fake-transport.js';
import { OPERATOR_SESSION, callsTo, renderApp } from '../render-app.js';

afterEach(cleanup);

const STORED = { ...settingsDefaults({ logLevel: 'info' }).netboot, http_proxy: 'http://proxy.lan:3128' };
const routes = {
  ...API_FIXTURES,
  'GET /api/v1/settings/netboot': () => ok(STORED),
  'PUT /api/v1/settings/netboot': (body: unknown) => ok({ ...STORED, ...(body as object) }),
};

/** The input of a labelled Mantine combobox (its listbox carries the label too). */
function inputOf(container: HTMLElement, label: string): HTMLInputElement {
  const input = within(container).getAllByLabelText(label).find((element) => element.tagName === 'INPUT');
  if (!input) throw new Error(`no input labelled ${label}`);
  return input as HTMLInputElement;
}

describe('Netboot settings', () => {
  it('saves the download cache, offline mode, timeout, task expiry and (for an admin) the proxy', async () => {
    const fake = renderApp('/settings?tab=netboot', routes);
    const size = await screen.findByLabelText(/^Download cache size/);
    fireEvent.change(size, { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The contract's range, checked before sending.
    expect(await screen.findByText('64–1048576')).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')).toEqual([]);
    fireEvent.change(size, { target: { value: '4096' } });
    fireEvent.click(screen.getByLabelText(/^Offline: never download/));
    fireEvent.change(screen.getByLabelText(/^Install tasks expire after/), { target: { value: '120' } });
    fireEvent.change(screen.getByLabelText(/^HTTP proxy for downloads/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).toEqual({
        default_action: 'menu',
        default_profile_id: null,
        menu_timeout_seconds: 10,
        record_unknown_hosts: true,
        cache_max_mb: 4096,
        offline: true,
        download_timeout_seconds: 30,
        task_expiry_minutes: 120,
        boot_loaders: { uefi_x64: 'grub', uefi_arm64: 'grub', groups: {} },
        http_proxy: null,
      }),
    );
  });

  it('sets the loader per architecture and per host group, checking group names before sending', async () => {
    let puts = 0;
    const fake = renderApp('/settings?tab=netboot', {
      ...routes,
      'GET /api/v1/hosts/groups': () => ok({ groups: [{ name: 'Lab', hosts: 3 }, { name: 'racks', hosts: 2 }], tags: [], ungrouped: 0, total: 5 }),
      'PUT /api/v1/settings/netboot': (body: unknown) =>
        ++puts === 1
          ? { status: 400, body: { success: false, code: 'VALIDATION_ERROR', error: 'invalid', details: [{ field: 'body.boot_loaders.groups', message: 'at most 256 groups' }] } }
          : ok({ ...STORED, ...(body as object) }),
    });
    const loaders = await screen.findByRole('group', { name: 'Boot loaders' });
    expect(within(loaders).getByText('No group overrides: every group follows its architecture\'s default.')).toBeTruthy();
    fireEvent.click(inputOf(loaders, 'x64 UEFI machines'));
    fireEvent.click(await screen.findByRole('option', { name: 'iPXE' }));
    // A new row takes the first group in use; a second one typed with another case is a duplicate.
    fireEvent.click(within(loaders).getByRole('button', { name: 'Add a group' }));
    expect(inputOf(loaders, 'Group 1').value).toBe('Lab');
    fireEvent.click(within(loaders).getByRole('button', { name: 'Add a group' }));
    fireEvent.change(inputOf(loaders, 'Group 2'), { target: { value: 'lab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('"lab" is already listed (group names match case-insensitively)')).toBeTruthy();
    fireEvent.change(inputOf(loaders, 'Group 2'), { target: { value: '-bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/^A group name: letters, digits/)).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')).toEqual([]);
    fireEvent.change(inputOf(loaders, 'Group 2'), { target: { value: 'racks' } });
    fireEvent.click(inputOf(loaders, 'Loader of group racks'));
    fireEvent.click(await screen.findByRole('option', { name: 'GRUB (Secure Boot chain)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The server's error on the groups lands under the list.
    expect(await within(loaders).findByText('At most 256 groups')).toBeTruthy();
    fireEvent.click(within(loaders).getByRole('button', { name: 'Remove group Lab' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/settings/netboot')).toHaveLength(2));
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).toMatchObject({ boot_loaders: { uefi_x64: 'ipxe', uefi_arm64: 'grub', groups: { Lab: 'ipxe', racks: 'grub' } } });
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[1]?.body).toMatchObject({ boot_loaders: { uefi_x64: 'ipxe', uefi_arm64: 'grub', groups: { racks: 'grub' } } });
  });

  it('lets an operator change everything but the proxy, which it never sends', async () => {
    const fake = renderApp('/settings?tab=netboot', routes, { session: OPERATOR_SESSION });
    const proxy = (await screen.findByLabelText(/^HTTP proxy for downloads/)) as HTMLInputElement;
    expect(proxy.disabled).toBe(true);
    expect(proxy.value).toBe('http://proxy.lan:3128');
    fireEvent.change(screen.getByLabelText(/^Download timeout/), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).toMatchObject({ download_timeout_seconds: 60 }));
    expect(callsTo(fake.calls, 'PUT', '/settings/netboot')[0]?.body).not.toHaveProperty('http_proxy');
  });
});
