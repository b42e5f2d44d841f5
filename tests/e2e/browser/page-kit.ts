import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/*
 * What the page-level browser tests share: opening a page of the built
 * renderer and waiting until it has loaded, and a full-page screenshot into
 * test-output/screenshots (looked at by people, compared by nothing).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SCREENSHOTS = path.join(ROOT, 'test-output', 'screenshots');

/** Goes to `url` under `base` and waits for the page's heading and for every "Loading" status to go. */
export async function openPage(page: Page, base: string, url: string): Promise<void> {
  await page.goto(`${base}${url}`);
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.locator('main [role=status]', { hasText: /^Loading/ }).count(), { timeout: 10_000 }).toBe(0);
}

/** A full-page screenshot named `name`.png (after a short settle for transitions). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Signs `user` in through the login page and waits for the dashboard. */
export async function signIn(page: Page, base: string, user: { username: string; password: string }): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, on a fresh profile at `profileDir`: 1440 × 900, light theme, nothing phoning home. */
export async function launchChromium(profileDir: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    colorScheme: 'light',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return { context, page };
}
