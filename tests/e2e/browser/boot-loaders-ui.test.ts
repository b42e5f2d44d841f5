import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, createUser, type TestUser } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { browserSession, CHROMIUM, openPage, screenshot, SCREENSHOTS, type BrowserSession } from './page-kit.js';
import { loopbackNic } from './dns-client.js';

/*
 * Issue 21's UI in Debian's chromium against a real headless core: the
 * netboot settings choose the loader per architecture and per host group;
 * a host's form chooses its own; the host page's preview shows the loader
 * the server decided (first stage, what decided it, why) and the GRUB
 * configuration it renders for that machine, each checked against the API.
 * Screenshots at 1440 and 800 px, light and dark. Needs `npm run build:renderer`.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RENDERER_DIR = path.join(ROOT, 'dist', 'renderer');
const MAC = '52:54:00:21:00:01';

const skip = !existsSync(CHROMIUM) && !process.env.CI;
if (skip) console.warn(`boot-loaders-ui e2e skipped: ${CHROMIUM} (apt-get install chromium) is not installed; in CI it must be present and this test runs`);

describe.skipIf(skip)('boot loaders in a browser', () => {
  let test: TestCore;
  let admin: TestUser;
  let browser: BrowserSession | undefined;
  let page: Page;
  let base: string;
  let hostId = 0;
  let pageProblems: string[] = [];

  const shot = (name: string) => screenshot(page, name);
  const open = (url: string) => openPage(page, base, url);

  const api = (method: 'GET' | 'POST', url: string, payload?: object) => apiCaller(test.core, 'admin')(method, url, payload);

  /** The input of a labelled Mantine select (its listbox carries the label too). */
  const selectInput = (scope: ReturnType<Page['getByRole']>, label: string) => scope.locator('input').and(scope.getByLabel(label, { exact: true }));

  beforeAll(async () => {
    if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error(`${RENDERER_DIR}/index.html is missing: run \`npm run build:renderer\` before this test`);
    await mkdir(SCREENSHOTS, { recursive: true });
    test = await createTestCore({ rendererDir: RENDERER_DIR, nicReader: () => [loopbackNic()] });
    await test.core.start();
    base = test.core.url();
    admin = await createUser(test.core, 'admin');
    // A machine known as x86_64 (iPXE's buildarch; with no platform yet the preview takes UEFI): the loader choice is about it.
    const made = await api('POST', '/hosts', { mac: MAC, hostname: 'sb-laptop', group: 'Lab', arch: 'x86_64' });
    expect(made.status).toBe(201);
    hostId = made.data.id as number;
    browser = await browserSession('loaders', base, admin);
    ({ page, problems: pageProblems } = browser);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await test?.close();
  });

  it('sets iPXE as the x64 default and GRUB for the group Lab in the netboot settings', async () => {
    await open('/settings?tab=netboot');
    const loaders = page.getByRole('group', { name: 'Boot loaders' });
    await loaders.getByText('No group overrides').waitFor();
    await selectInput(loaders, 'x64 UEFI machines').click();
    await page.getByRole('option', { name: 'iPXE', exact: true }).click();
    await loaders.getByRole('button', { name: 'Add a group' }).click();
    // The new row offers the groups in use: the host's "Lab" comes first.
    await expect.poll(() => selectInput(loaders, 'Group 1').inputValue()).toBe('Lab');
    await selectInput(loaders, 'Loader of group Lab').click();
    await page.getByRole('option', { name: 'GRUB (Secure Boot chain)' }).click();
    await shot('boot-loaders-settings-1440-light');
    await page.getByRole('form', { name: 'Netboot settings' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api('GET', '/settings/netboot')).data.boot_loaders).toEqual({ uefi_x64: 'ipxe', uefi_arm64: 'grub', groups: { Lab: 'grub' } });
  });

  it('shows the group\'s GRUB decision on the host page with the GRUB configuration the machine reads', async () => {
    await open(`/hosts/${hostId}`);
    const loader = page.getByRole('group', { name: 'Boot loader' });
    await loader.getByText('GRUB signed chain').waitFor();
    await loader.getByText('shimx64.efi').waitFor();
    await loader.getByText(/decided by its group/).waitFor();
    const preview = (await api('GET', `/hosts/${hostId}/boot-config`)).data as { grub_config: string; grub_config_path: string };
    await expect.poll(() => page.getByRole('tab', { name: /GRUB config/ }).getAttribute('aria-selected')).toBe('true');
    await page.getByText(preview.grub_config_path, { exact: true }).waitFor();
    // CodeMirror draws a line per element, only those near the view: its first 20 are the configuration's.
    const lines = (text: string) => text.split('\n').map((line) => line.trimEnd()).slice(0, 20);
    await expect.poll(async () => lines(await page.getByRole('textbox', { name: 'Rendered GRUB configuration' }).innerText())).toEqual(lines(preview.grub_config));
    await shot('boot-loaders-host-1440-light');
  });

  it('overrides the group for this host with iPXE from the host form', async () => {
    await open(`/hosts/${hostId}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /Edit host/ });
    await selectInput(dialog, 'Boot loader').click();
    await page.getByRole('option', { name: 'iPXE', exact: true }).click();
    await dialog.getByRole('button', { name: /^Save/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await api('GET', `/hosts/${hostId}`)).data.boot_loader).toBe('ipxe');
    const loader = page.getByRole('group', { name: 'Boot loader' });
    await loader.getByText('iPXE', { exact: true }).waitFor();
    await loader.getByText(/decided by the host setting/).waitFor();
    await expect.poll(() => page.getByRole('tab', { name: /iPXE script/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('lays the settings and host pages out at 800 px and in the dark theme', async () => {
    await page.setViewportSize({ width: 800, height: 1024 });
    for (const [url, name] of [
      [`/hosts/${hostId}`, 'boot-loaders-host'],
      ['/settings?tab=netboot', 'boot-loaders-settings'],
    ] as const) {
      await open(url);
      // Nothing wider than the window: no sideways scrolling of the whole page.
      expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(800);
      await shot(`${name}-800-light`);
    }
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await shot('boot-loaders-settings-800-dark');
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(`/hosts/${hostId}`);
    await shot('boot-loaders-host-1440-dark');
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
  });

  it('had no page error, failed request or console error', () => {
    expect(pageProblems).toEqual([]);
  });
});
