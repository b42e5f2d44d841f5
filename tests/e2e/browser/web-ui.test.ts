import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '../../../src-main/api/http-app.js';
import { createUser, type TestUser } from '../../helpers/auth.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';

/*
 * The built web UI in a real browser (Debian's chromium through
 * playwright-core) against a real headless core: login, the services table,
 * deep links served by the SPA fallback, logout. Needs `npm run build:renderer`.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RENDERER_DIR = path.join(ROOT, 'dist', 'renderer');
const SCREENSHOTS = path.join(ROOT, 'test-output', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';

const missingBrowser = !existsSync(CHROMIUM) && !process.env.CI;
if (missingBrowser) {
  console.warn(`web-ui e2e skipped: ${CHROMIUM} is not installed (apt-get install chromium); in CI it must be present and this test runs`);
}

describe.skipIf(missingBrowser)('web UI in a browser', () => {
  let test: TestCore;
  let admin: TestUser;
  let profile: { dir: string; remove: () => Promise<void> };
  let context: BrowserContext;
  let page: Page;
  let base: string;
  const pageProblems: string[] = [];

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
      throw new Error(`${RENDERER_DIR}/index.html is missing: run \`npm run build:renderer\` before this test`);
    }
    await mkdir(SCREENSHOTS, { recursive: true });
    test = await createTestCore({ rendererDir: RENDERER_DIR });
    await test.core.start();
    base = test.core.url();
    admin = await createUser(test.core, 'admin');
    profile = await tempDir('bootwright-chromium-');
    context = await chromium.launchPersistentContext(profile.dir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    // Script errors and CSP violations show up here; the UI must produce none.
    page.on('pageerror', (error) => pageProblems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 401/.test(message.text())) pageProblems.push(`console: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await context?.close();
    await profile?.remove();
    await test?.close();
  });

  it('sends a visitor of / to the login page, served with the CSP', async () => {
    const response = await page.goto(`${base}/`);
    expect(response?.headers()['content-security-policy']).toBe(RENDERER_CSP);
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).search).toBe('');
    await shot('01-login');
  });

  it('shows a wrong password as an error', async () => {
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong username or password.');
    await shot('02-login-error');
  });

  it('logs in and shows the services table', async () => {
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table').waitFor();
    expect(new URL(page.url()).pathname).toBe('/services');
    const httpRow = page.getByRole('row', { name: /^http\b/ });
    await expect(httpRow.getByText('running').count()).resolves.toBe(1);
    await expect(httpRow.getByRole('button', { name: 'Stop http' }).count()).resolves.toBe(0);
    await expect(page.getByText(`${admin.username} · admin`).count()).resolves.toBe(1);
    await shot('03-services');
  });

  it('opens /services directly by URL (deep link, session kept)', async () => {
    await page.goto(`${base}/services`);
    await page.getByRole('table').waitFor();
    await expect(page.getByRole('heading', { name: 'Services' }).count()).resolves.toBe(1);
  });

  it('loads the app on a nested unknown path and shows "not found"', async () => {
    await page.goto(`${base}/services/dns`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await shot('04-not-found');
  });

  it('toggles auto-start through the API', async () => {
    await page.goto(`${base}/services`);
    const toggle = page.getByRole('switch', { name: 'Auto-start http' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(() => test.core.ctx.services.get('http').auto_start).toBe(false);
    await expect.poll(() => toggle.isChecked()).toBe(false);
  });

  it('logs out back to the login page', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Username').waitFor();
    await page.goto(`${base}/services`);
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/services');
  });

  it('produced no script errors or CSP violations', () => {
    expect(pageProblems).toEqual([]);
  });
});
