import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../src-main/alerts/alerts-contract.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
  await t.core.area('boot-files').bootloaders.installMissing([t.core.area('boot-files').files.root]);
});
afterAll(async () => t.close());

describe('boot loader alerts', () => {
  it('raises a boot loader missing for an architecture machines were seen with, not for the others', async () => {
    const root = t.core.area('boot-files').files.root;
    await rm(path.join(root, 'shimx64.efi'), { force: true });
    await rm(path.join(root, 'shimaa64.efi'), { force: true });
    // An x64 UEFI PXE client asked for a boot file; no ARM64 machine did.
    t.core.kernel.events.emit({ kind: 'dhcp.discover', message: 'DISCOVER', mac: '52:54:00:00:00:07', detail: { arch: 7 } });
    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/alerts', headers: as('viewer') });
    const list = res.json<{ data: Alert[] }>().data;
    const x64 = list.find((alert) => alert.id === 'bootloader.uefi_x64');
    expect(x64).toMatchObject({ severity: 'error', source: 'boot-files', link: '/services/tftp?tab=bootloaders' });
    expect(x64!.message).toContain('shimx64.efi');
    expect(list.some((alert) => alert.id === 'bootloader.uefi_arm64')).toBe(false);
  });
});
