import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { tempDir } from '../../helpers/test-core.js';

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

/**
 * What is wrong with the layout of the page shown now, in words (issue 18,
 * 800 px): the page scrolls sideways; a pinned actions cell lies over another
 * cell of its row (the table overflows under it); a table cell or badge cuts
 * its text ("3(" for a TTL) or a badge its word; the page is absurdly long (text wrapping a few
 * letters per line). Empty when the layout is sound.
 */
export async function layoutProblems(page: Page, maxHeight = 8000): Promise<string[]> {
  const check = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'layout-check.browser.js'), 'utf8');
  const problems: unknown = await page.evaluate(`(${check.replace(/^\/\/.*\n/gm, '')})(${maxHeight})`);
  return problems as string[];
}

/**
 * Collects what goes wrong in `page` into the returned list: failed requests
 * (with their URL: the console's "Failed to load resource" names none),
 * script errors and console errors. `provoked` are the statuses a test causes
 * on purpose (a wrong password, a bad field, an overwrite question).
 */
export function watchPageProblems(page: Page, provoked: readonly number[] = [400, 401]): string[] {
  const problems: string[] = [];
  const statuses = new RegExp(`status of (${provoked.join('|')})\\b`);
  page.on('response', (response) => {
    if (response.status() >= 400 && !provoked.includes(response.status())) problems.push(`response: ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !statuses.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/** A Chromium signed in to `base` with its own profile folder, the page's problems watched; `close()` ends both. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Page errors, failed requests and console errors (watchPageProblems). */
  problems: string[];
  close(): Promise<void>;
}

export async function browserSession(name: string, base: string, user: { username: string; password: string }, provoked?: readonly number[]): Promise<BrowserSession> {
  const profile = await tempDir(`bootwright-chromium-${name}-`);
  const { context, page } = await launchChromium(profile.dir);
  const problems = watchPageProblems(page, provoked);
  await signIn(page, base, user);
  return {
    context,
    page,
    problems,
    close: async () => {
      await context.close();
      await profile.remove();
    },
  };
}
