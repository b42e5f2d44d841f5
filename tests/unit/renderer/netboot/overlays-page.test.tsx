// @vitest-environment jsdom
import '../dom-setup.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, type Route } from '../fake-transport.js';
import { callsTo, renderApp } from '../render-app.js';
import { NETBOOT_FIXTURES, OVERLAY } from './netboot-fixtures.js';

afterEach(cleanup);

const routes: Record<string, Route> = {
  ...NETBOOT_FIXTURES,
  'PUT /api/v1/netboot/overlays/debian': (body) => ok({ distro: 'debian', ...(body as object), updated_at: '2024-05-03T00:00:00Z', updated_by: 'admin' }),
  'DELETE /api/v1/netboot/overlays/memtest86plus': () => ok(OVERLAY),
};

describe('Catalog overlays', () => {
  it('creates an overlay with a mirror, extra initrds and YAML versions checked against the contract first', async () => {
    const fake = renderApp('/netboot/overlays', routes);
    expect(await screen.findByText('mirror http://mirror.lan/memtest/')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New overlay' }));
    const dialog = await screen.findByRole('dialog', { name: 'New overlay' });
    fireEvent.click(within(dialog).getAllByLabelText(/^Catalog entry/).find((element) => element.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'Debian (debian)' }));
    fireEvent.click(within(dialog).getByLabelText('Keep the shipped mirror'));
    fireEvent.change(within(dialog).getByLabelText('Mirror base URL'), { target: { value: 'ftp://mirror.lan/' } });
    fireEvent.change(within(dialog).getByLabelText(/^Extra initrds/), { target: { value: 'firmware.cpio.gz\n' } });
    fireEvent.change(within(dialog).getByLabelText(/^Versions/), { target: { value: '- version: "13"\n  name: 13 (trixie)\n  architectures:\n    - arch: x86_64\n      firmware: [uefi]\n      kernel: /abs/linux\n      initrds: []\n' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save overlay' }));
    expect(await within(dialog).findByText('An http:// or https:// base URL')).toBeTruthy();
    expect(within(dialog).getByText(/^\/0\/architectures\/0\/kernel: /)).toBeTruthy();
    expect(callsTo(fake.calls, 'PUT', '/netboot/overlays/debian')).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Mirror base URL'), { target: { value: 'http://mirror.lan/debian/' } });
    fireEvent.change(within(dialog).getByLabelText(/^Versions/), { target: { value: '- version: "13"\n  name: 13 (trixie)\n  architectures:\n    - arch: x86_64\n      firmware: [uefi]\n      kernel: linux\n      initrds: [initrd.gz]\n' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save overlay' }));
    await waitFor(() =>
      expect(callsTo(fake.calls, 'PUT', '/netboot/overlays/debian')[0]?.body).toEqual({
        mirror: 'http://mirror.lan/debian/',
        extra_initrds: ['firmware.cpio.gz'],
        versions: [{ version: '13', name: '13 (trixie)', architectures: [{ arch: 'x86_64', firmware: ['uefi'], kernel: 'linux', initrds: ['initrd.gz'] }] }],
      }),
    );
  });

  it('deletes an overlay after confirmation, restoring the shipped entry', async () => {
    const fake = renderApp('/netboot/overlays', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete overlay of memtest86plus' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete overlay of memtest86plus?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(fake.calls, 'DELETE', '/netboot/overlays/memtest86plus')).toHaveLength(1));
  });
});
