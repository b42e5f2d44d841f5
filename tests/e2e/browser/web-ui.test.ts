import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '../../../src-main/api/http-app.js';
import { bearerHeaders, createUser, type TestUser } from '../../helpers/auth.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { DNS_SERVER, freeUdpTcpPort, loopbackNic, resolveA } from './dns-client.js';
import { layoutProblems } from './page-kit.js';

/*
 * The built web UI in Debian's chromium (playwright-core) against a real
 * headless core whose one fake interface has a loopback address, so its DNS
 * server answers real queries on 127.77.0.1. The flow: login, the dashboard's
 * live events, DNS settings and a record resolved over UDP, a service
 * stopped and started, a profile and a host with its boot-config preview, a
 * screenshot of every page (light, dark, tablet), and a viewer who sees no
 * mutating control anywhere. Needs `npm run build:renderer` first.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RENDERER_DIR = path.join(ROOT, 'dist', 'renderer');
const SCREENSHOTS = path.join(ROOT, 'test-output', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';

/** Buttons that change something on the server; a viewer must see none. */
const MUTATING = /^(New|Add|Save|Delete|Edit|Start|Stop|Restart|Create|Import|Probe|Wake|Adopt|Prune|Clean up|Remove|Roll back|Restore|Whitelist|Blacklist|Forget|Clear history|Check file|Actions|Selected|Revoke|Discard|Prefetch|Install|Empty cache|Cancel task|Validate)/;

/** Every page with a path a screenshot can open (ids filled in once created). */
const PAGES = [
  ['dashboard', '/'],
  ['services', '/services'],
  ['dns', '/services/dns'],
  ['dhcp', '/services/dhcp'],
  ['dhcp-archmap', '/services/dhcp?tab=archmap'],
  ['leases', '/leases'],
  ['reservations', '/dhcp/reservations'],
  ['access', '/access'],
  ['access-unauthorized', '/access?tab=unauthorized'],
  ['tftp', '/services/tftp'],
  ['tftp-entry-script', '/services/tftp?tab=entry-script'],
  ['tftp-bootloaders', '/services/tftp?tab=bootloaders'],
  ['hosts', '/hosts'],
  ['profiles', '/profiles'],
  ['bmc', '/bmc'],
  ['wol', '/wol'],
  ['wol-schedules', '/wol?tab=schedules'],
  ['events', '/events'],
  ['logs', '/logs'],
  ['audit', '/audit'],
  ['settings', '/settings'],
  ['settings-interfaces', '/settings?tab=interfaces'],
  ['settings-netboot', '/settings?tab=netboot'],
  ['settings-logging', '/settings?tab=logging'],
  ['users', '/users'],
  ['users-tokens', '/users?tab=tokens'],
  ['netboot-catalog', '/netboot'],
  ['netboot-tasks', '/netboot/tasks'],
  ['netboot-templates', '/netboot/templates'],
  ['netboot-overlays', '/netboot/overlays'],
  ['diagnostics', '/diagnostics'],
  ['scripts', '/scripts'],
  ['baselines', '/baselines'],
  ['store', '/store'],
  ['kit', '/kit'],
  ['setup', '/setup'],
  ['images', '/images'],
  ['files', '/files'],
  ['nfs', '/services/nfs'],
] as const;

const missingBrowser = !existsSync(CHROMIUM) && !process.env.CI;
if (missingBrowser) {
  console.warn(`web-ui e2e skipped: ${CHROMIUM} is not installed (apt-get install chromium); in CI it must be present and this test runs`);
}

describe.skipIf(missingBrowser)('web UI in a browser', () => {
  let test: TestCore;
  let admin: TestUser;
  let viewer: TestUser;
  let profile: { dir: string; remove: () => Promise<void> };
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let dnsPort: number;
  let hostId = 0;
  let profileId = 0;
  let templateId = 0;
  let taskId = 0;
  let scriptId = 0;
  let baselineId = 0;
  const pageProblems: string[] = [];

  /**
   * A full-page screenshot. The viewport is first grown to the page's height:
   * CodeMirror measures only the lines it sees, and a capture beyond the
   * viewport would show the unmeasured ones squeezed.
   */
  const shot = async (name: string) => {
    const size = page.viewportSize() ?? { width: 1280, height: 800 };
    const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, Math.min(height, 6000)) });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    await page.setViewportSize(size);
  };

  /** Opens a page and waits until its h1 is there and nothing says "Loading". */
  const open = async (url: string) => {
    await page.goto(`${base}${url}`);
    await page.locator('main h1').first().waitFor();
    await expect.poll(() => page.locator('main [role=status]', { hasText: /^Loading/ }).count(), { timeout: 10_000 }).toBe(0);
  };

  const login = async (user: TestUser) => {
    await page.goto(`${base}/login`);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  };

  const logout = async () => {
    await page.getByRole('button', { name: /^User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByLabel('Username').waitFor();
  };

  beforeAll(async () => {
    if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
      throw new Error(`${RENDERER_DIR}/index.html is missing: run \`npm run build:renderer\` before this test`);
    }
    await mkdir(SCREENSHOTS, { recursive: true });
    test = await createTestCore({ rendererDir: RENDERER_DIR, nicReader: () => [loopbackNic()] });
    dnsPort = await freeUdpTcpPort(DNS_SERVER);
    await test.core.start();
    base = test.core.url();
    admin = await createUser(test.core, 'admin');
    viewer = await createUser(test.core, 'viewer');
    profile = await tempDir('bootwright-chromium-');
    context = await chromium.launchPersistentContext(profile.dir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 800 },
      colorScheme: 'light',
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
    // Fail a step with its locator well before the test's own time limit.
    page.setDefaultTimeout(10_000);
    // Script errors and CSP violations show up here; the UI must produce none.
    page.on('pageerror', (error) => pageProblems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // Refused requests the test provokes on purpose (wrong password, a bad field) are logged by the browser too.
      if (message.type() === 'error' && !/status of (400|401|409)\b/.test(message.text())) pageProblems.push(`console: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await context?.close();
    await profile?.remove();
    await test?.close();
  });

  it('sends a visitor of / to the login page, served with the CSP, and refuses a wrong password', async () => {
    const response = await page.goto(`${base}/`);
    expect(response?.headers()['content-security-policy']).toBe(RENDERER_CSP);
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await shot('01-login');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong username or password.');
    await shot('02-login-error');
  });

  it('logs in to the dashboard, which shows a live event as it happens', async () => {
    await login(admin);
    await expect(page.getByRole('button', { name: `User menu: ${admin.username} (admin)` }).count()).resolves.toBe(1);
    const events = page.getByRole('list', { name: 'Latest events' });
    await events.waitFor();
    // Another client changes something: the event reaches this page over the live stream.
    const made = await test.core.http.inject({
      method: 'POST',
      url: '/api/v1/dns/records',
      headers: await bearerHeaders(test.core, 'operator'),
      payload: { name: 'live-e2e', type: 'TXT', value: 'made elsewhere' },
    });
    expect(made.statusCode).toBe(201);
    await events.getByText('DNS record live-e2e TXT created').waitFor({ timeout: 10_000 });
    await shot('03-dashboard');
  });

  it('sets the DNS port in /services/dns, shows a server error at its field and creates a record', async () => {
    await open('/services/dns');
    await page.getByLabel('Port', { exact: true }).fill(String(dnsPort));
    await page.getByRole('button', { name: 'Save DNS settings' }).click();
    await expect.poll(() => test.core.area('dns').settings.get().port).toBe(dnsPort);

    await page.getByRole('button', { name: 'New record' }).click();
    const dialog = page.getByRole('dialog', { name: 'New DNS record' });
    // A name the API refuses: its message appears at the Name field.
    await dialog.getByLabel(/^Name/).fill('bad name!');
    await dialog.getByLabel('IPv4 address').fill('127.77.0.99');
    await dialog.getByRole('button', { name: 'Create record' }).click();
    const nameError = dialog.locator('.mantine-TextInput-error');
    await nameError.first().waitFor();
    expect(await nameError.first().textContent()).toMatch(/./);
    await shot('04-dns-field-error');
    await dialog.getByLabel(/^Name/).fill('e2e-www');
    await dialog.getByRole('button', { name: 'Create record' }).click();
    await dialog.waitFor({ state: 'detached' });
    const table = page.getByRole('table', { name: 'DNS records' });
    await table.getByText('e2e-www', { exact: true }).waitFor();
    await shot('05-dns');
  });

  it('starts and stops the DNS service from /services, which then answers the record over UDP', async () => {
    await open('/services');
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^dns\b/ }) });
    if (test.core.kernel.services.get('dns').state !== 'running') {
      await row.getByRole('button', { name: 'Start dns', exact: true }).click();
      await row.getByText('running', { exact: true }).waitFor();
    }
    expect(test.core.kernel.services.get('dns').listen.some((address) => address.endsWith(`${DNS_SERVER}:${dnsPort}`))).toBe(true);
    // A real query to the server the UI configured.
    await expect(resolveA('e2e-www.bootwright.local', dnsPort)).resolves.toEqual(['127.77.0.99']);

    await row.getByRole('button', { name: 'Stop dns', exact: true }).click();
    await row.getByText('stopped', { exact: true }).waitFor();
    expect(test.core.kernel.services.get('dns').state).toBe('stopped');
    await expect(resolveA('e2e-www.bootwright.local', dnsPort, DNS_SERVER, 500)).rejects.toThrow(/no DNS answer/);
    await shot('06-services-dns-stopped');

    await row.getByRole('button', { name: 'Start dns', exact: true }).click();
    await row.getByText('running', { exact: true }).waitFor();
    await expect(resolveA('e2e-www.bootwright.local', dnsPort)).resolves.toEqual(['127.77.0.99']);
    // The auto-start switch reaches the service manager.
    // Mantine draws the switch over a visually hidden checkbox: set it rather than click its box.
    await page.getByRole('switch', { name: 'Auto-start tftp' }).setChecked(false, { force: true });
    await expect.poll(() => test.core.kernel.services.get('tftp').auto_start).toBe(false);
    await shot('07-services');
  });

  it('saving DNS settings does not restart a server the operator stopped by hand', async () => {
    await test.core.kernel.services.stop('dns');
    expect(test.core.kernel.services.get('dns').auto_start).toBe(true);
    await open('/services/dns');
    const otherPort = await freeUdpTcpPort(DNS_SERVER);
    await page.getByLabel('Port', { exact: true }).fill(String(otherPort));
    await page.getByRole('button', { name: 'Save DNS settings' }).click();
    await expect.poll(() => test.core.area('dns').settings.get().port).toBe(otherPort);
    // The form sends `enabled` only when its switch changed; sent unchanged it would start the server again.
    expect(test.core.kernel.services.get('dns').state).toBe('stopped');
  });

  it('creates a profile and a host, and previews the host boot config', async () => {
    await open('/profiles/new');
    await page.getByLabel(/^Name/).fill('E2E Linux');
    await page.getByRole('combobox', { name: 'Boot type' }).click();
    await page.getByRole('option', { name: 'Linux kernel' }).click();
    await page.getByLabel(/^Kernel\s*\*?$/).fill('e2e/vmlinuz');
    const initrds = page.getByRole('combobox', { name: 'Initrds' });
    await initrds.fill('e2e/initrd.img');
    await initrds.press('Enter');
    await page.getByLabel('Kernel command line').fill('console=ttyS0 e2e=1');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByRole('heading', { name: 'E2E Linux' }).waitFor();
    profileId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(profileId).toBeGreaterThan(0);
    await shot('08-profile');

    // A second version, then its diff.
    await page.getByLabel('Kernel command line').fill('console=ttyS0 e2e=2');
    await page.getByLabel('Version comment').fill('e2e change');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('tab', { name: 'Versions (2)' }).click();
    const diff = page.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await diff.getByText('e2e=2', { exact: false }).first().waitFor();
    await shot('09-profile-versions');

    await open('/hosts');
    await page.getByRole('button', { name: 'New host' }).click();
    const dialog = page.getByRole('dialog', { name: 'New host' });
    await dialog.getByLabel(/^MAC address/).fill('52:54:00:e2:e0:01');
    await dialog.getByLabel('Hostname').fill('e2e-host');
    await dialog.getByRole('combobox', { name: 'Boot profile' }).click();
    await page.getByRole('option', { name: 'E2E Linux' }).click();
    await dialog.getByRole('button', { name: 'Create host' }).click();
    await page.getByRole('heading', { name: 'e2e-host' }).waitFor();
    hostId = Number(new URL(page.url()).pathname.split('/').pop());
    const preview = page.locator('section', { has: page.getByRole('heading', { name: 'Boot configuration preview' }) });
    await preview.getByText('host', { exact: false }).first().waitFor();
    await preview.getByRole('cell', { name: /\/boot\/e2e\/vmlinuz$/ }).waitFor();
    // Not seen yet, so taken for x64 UEFI, whose default is the signed GRUB chain: its configuration is the tab open.
    const grub = await preview.getByRole('textbox', { name: 'Rendered GRUB configuration' }).textContent();
    expect(grub).toContain('e2e/vmlinuz');
    expect(grub).toContain('e2e=2');
    await shot('10-host');
    await preview.getByRole('tab', { name: /iPXE script/ }).click();
    const script = await preview.getByRole('textbox', { name: 'Rendered boot script' }).textContent();
    expect(script).toContain('/boot/e2e/vmlinuz');
    expect(script).toContain('e2e=2');
  }, 90_000);

  it('shows an install task for the host and an answer template made from a preset', async () => {
    const netboot = test.core.area('netboot');
    // Debian 12 as a local entry (placeholder files): nothing to download.
    const local = path.join(test.core.area('boot-files').files.root, 'netboot', 'debian', '12', 'x86_64');
    await mkdir(local, { recursive: true });
    for (const name of ['linux', 'initrd.gz']) await writeFile(path.join(local, name), `placeholder ${name}`);
    const template = await netboot.answers.create({ preset: 'debian-preseed', name: 'Debian lab' }, { author: admin.username });
    templateId = template.id;
    const task = await netboot.tasks.service.create({ host_id: hostId, distro: 'debian', version: '12', arch: 'x86_64', template_id: template.id });
    taskId = task.id;
    await open(`/netboot/tasks/${taskId}`);
    await page.getByText('pending', { exact: false }).first().waitFor();
    await shot('11-netboot-task');
    await open(`/hosts/${hostId}`);
    await page.getByRole('heading', { name: 'Install in progress' }).waitFor();
    await page.getByRole('link', { name: `Task #${taskId}` }).waitFor();
  });

  it('pings 127.0.0.1 live from /diagnostics (a fetch-streamed POST), and Stop ends a run on the server', async () => {
    await open('/diagnostics');
    await page.getByLabel('Target', { exact: false }).first().fill('127.0.0.1');
    await page.getByLabel('Count', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Run ping' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Summary' }).textContent(), { timeout: 15_000 }).toContain('2 sent, 2 received, 0% loss');
    await expect(page.getByRole('table', { name: 'Results' }).getByRole('row').count()).resolves.toBe(3);
    await shot('diagnostics-ping-done');
    // A long run: stop it after its first reply; the server kills ping and frees the slot.
    await page.getByLabel('Count', { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Run ping' }).click();
    await page.getByRole('table', { name: 'Results' }).getByRole('cell', { name: '1', exact: true }).waitFor({ timeout: 15_000 });
    expect(test.core.area('diagnostics').active).toBe(1);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped after', { exact: false }).waitFor();
    await expect.poll(() => test.core.area('diagnostics').active, { timeout: 10_000 }).toBe(0);
  });

  it('imports a store bundle, asking about a name it would take, and shows the baseline it brought applying to the host', async () => {
    // A local script with the store script's name: the import must ask, never overwrite silently.
    await test.core.area('scripts').create({ name: 'Add SSH authorized key', kind: 'sh', content: 'echo mine\n' }, admin.username);
    await open('/store');
    await page.getByRole('button', { name: 'Import Linux lab starter' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Import under a new name' }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('The import will:').waitFor();
    await shot('12-store-import-plan');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const baseline = test.core.area('baselines').byName('Linux server baseline');
    expect(baseline?.scripts.length).toBeGreaterThan(0);
    baselineId = baseline?.id ?? 0;
    scriptId = test.core.area('scripts').byName('Add SSH authorized key (2)')?.id ?? 0;
    expect(scriptId).toBeGreaterThan(0);
    expect(test.core.area('scripts').byName('Add SSH authorized key')?.content).toBe('echo mine\n');

    // Assigned to the host, the lookup by the host's MAC names it.
    await test.core.area('baselines').update(baselineId, { assign: { host_ids: [hostId] } }, admin.username);
    await open('/baselines');
    const lookup = page.getByRole('form', { name: 'Which baseline applies' });
    await lookup.getByRole('textbox', { name: 'MAC address' }).fill('52:54:00:e2:e0:01');
    await lookup.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('region', { name: 'Lookup result' }).getByText('Linux server baseline').first().waitFor();
    await shot('13-baseline-lookup');
  }, 90_000);

  it('shows every page in the light theme with its data loaded', async () => {
    const pages = [
      ...PAGES,
      ['host', `/hosts/${hostId}`],
      ['profile-detail', `/profiles/${profileId}`],
      ['netboot-template', `/netboot/templates/${templateId}`],
      ['netboot-template-preview', `/netboot/templates/${templateId}?tab=preview`],
      ['netboot-template-versions', `/netboot/templates/${templateId}?tab=versions`],
      ['netboot-task', `/netboot/tasks/${taskId}`],
      ['script', `/scripts/${scriptId}`],
      ['baseline', `/baselines/${baselineId}`],
    ] as const;
    for (const [name, url] of pages) {
      await open(url);
      await shot(`page-${name}`);
    }
  }, 120_000);

  it('switches to the dark theme and keeps it across a reload', async () => {
    await open('/');
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await shot('dark-dashboard');
    await open(`/hosts/${hostId}`);
    await shot('dark-host');
    await open('/services/dns');
    await shot('dark-dns');
    await open('/netboot');
    await shot('dark-netboot-catalog');
    await open(`/netboot/templates/${templateId}`);
    await shot('dark-netboot-template');
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
  });

  it('is usable on a tablet: the navigation becomes a drawer', async () => {
    await page.setViewportSize({ width: 768 - 1, height: 1024 });
    await open('/hosts');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profiles' }).click();
    await page.getByRole('heading', { name: 'Profiles' }).waitFor();
    await shot('tablet-profiles');
    await page.setViewportSize({ width: 1024, height: 768 });
    await open('/hosts');
    await shot('tablet-landscape-hosts');
    await page.setViewportSize({ width: 800, height: 1024 });
    await open('/netboot');
    // At 800 px (a tablet, or the laptop's window beside another) the sidebar is a drawer: the page has the whole width.
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    const main = await page.getByRole('main').boundingBox();
    expect(main?.x ?? 999).toBeLessThan(40);
    await shot('tablet-netboot-catalog');
    await open(`/netboot/tasks/${taskId}`);
    await shot('tablet-netboot-task');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('lays out every page at 800 px in the dark theme: no sideways page, no actions cell over content, no cut text, no endless page', async () => {
    // Dark here, so that with the light pass above every page has a light, a dark and an 800 px screenshot.
    await open('/');
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await page.setViewportSize({ width: 800, height: 1024 });
    const found: string[] = [];
    for (const [name, url] of [...PAGES, ['host', `/hosts/${hostId}`], ['profile-detail', `/profiles/${profileId}`], ['netboot-task', `/netboot/tasks/${taskId}`]] as const) {
      await open(url);
      for (const problem of await layoutProblems(page)) found.push(`${url}: ${problem}`);
      await shot(`800-dark-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    expect(found, found.join('\n')).toEqual([]);
  }, 180_000);

  it('shows a viewer every page without a single mutating control', async () => {
    await logout();
    await login(viewer);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
    await expect(nav.getByRole('link', { name: 'Users & API tokens' }).count()).resolves.toBe(0);
    const viewerPages = [
      ...PAGES.filter(([name]) => !name.startsWith('users') && name !== 'audit' && name !== 'diagnostics' && name !== 'kit' && name !== 'setup'),
      ['host', `/hosts/${hostId}`],
      ['profile-detail', `/profiles/${profileId}`],
      ['netboot-template', `/netboot/templates/${templateId}`],
      ['netboot-task', `/netboot/tasks/${taskId}`],
    ] as const;
    for (const [name, url] of viewerPages) {
      await open(url);
      const labels = await page
        .locator('main')
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((button) => (button.getAttribute('aria-label') ?? button.textContent ?? '').trim()));
      expect(labels.filter((label) => MUTATING.test(label)), `mutating buttons on ${url}`).toEqual([]);
      if (['dashboard', 'dns', 'host', 'profile-detail', 'services', 'netboot-catalog', 'netboot-task'].includes(name)) await shot(`viewer-${name}`);
    }
    // A deep link to an admin page says which role it needs.
    await page.goto(`${base}/users`);
    await page.getByRole('alert').getByText('needs the admin role').waitFor();
  }, 120_000);

  it('logs out back to the login page, and a deep link returns there after login', async () => {
    await logout();
    await page.goto(`${base}/services/dns`);
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/services/dns');
  });

  it('produced no script errors or CSP violations', () => {
    expect(pageProblems).toEqual([]);
  });
});

