import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src-main/core/logger.js';
import { EventLog } from '../../../../src-main/events/event-log.js';
import { defaultCatalogFile, loadCatalogFile } from '../../../../src-main/netboot/catalog/catalog-file.js';
import { NetbootCatalog } from '../../../../src-main/netboot/catalog/netboot-catalog.js';
import { OverlayStore } from '../../../../src-main/netboot/catalog/overlays.js';
import type { CatalogFile } from '../../../../src-main/netboot/netboot-contract.js';
import { netbootFilePath } from '../../../../src-main/netboot/netboot-ports.js';
import { Store } from '../../../../src-main/store/store.js';
import { tempDir } from '../../../helpers/test-core.js';

function quietLog(lines: string[] = []): Logger {
  const log: Logger = {
    error: (message) => void lines.push(message),
    warn: (message) => void lines.push(message),
    info: () => undefined,
    debug: () => undefined,
    scope: () => log,
  };
  return log;
}

let store: Store;
let remove: () => Promise<void>;
let shipped: CatalogFile;

beforeEach(async () => {
  const dir = await tempDir();
  remove = dir.remove;
  store = await Store.open({ dataDir: dir.dir });
  shipped = await loadCatalogFile(defaultCatalogFile());
});

afterEach(async () => {
  await store.close();
  await remove();
});

function catalogOf(file: CatalogFile, lines: string[] = []): NetbootCatalog {
  return new NetbootCatalog({ catalog: file, overlays: new OverlayStore(store), events: new EventLog(store), log: quietLog(lines) });
}

describe('NetbootCatalog.resolve over the shipped catalog', () => {
  it('resolves every version of every entry for each listed architecture, placeholders expanded', () => {
    const catalog = catalogOf(shipped);
    let resolved = 0;
    for (const entry of catalog.entries()) {
      for (const version of entry.versions) {
        for (const arch of version.architectures) {
          const result = catalog.resolve(entry.distro, version.version, arch.arch);
          resolved += 1;
          const label = `${entry.distro} ${version.version} ${arch.arch}`;
          expect(result.files.length, label).toBe(1 + arch.initrds.length);
          for (const file of result.files) {
            expect(file.path, label).not.toMatch(/\{\{|\}\}/);
            expect(file.served_path).toBe(netbootFilePath(entry.distro, version.version, arch.arch, file.name));
            expect(file.url, label).toBe(result.mirror === null ? null : `${result.mirror}/${file.path}`);
          }
          expect(result.cmdline, label).not.toMatch(/\{\{\s*(version|codename|arch_alias)\s*\}\}/);
          expect(result.arch.checksums?.file ?? '', label).not.toContain('{{');
          expect(catalog.supports(result, 'uefi') || catalog.supports(result, 'bios')).toBe(true);
        }
      }
    }
    expect(resolved).toBeGreaterThan(30);
  });

  it('resolves Debian 12 x86_64 to the mirror layout and the local place the e2e test uses', () => {
    const result = shippedCatalog().resolve('debian', '12', 'x86_64');
    expect(result.files.map((file) => [file.role, file.url, file.served_path])).toEqual([
      ['kernel', 'https://deb.debian.org/debian/dists/bookworm/main/installer-amd64/current/images/netboot/debian-installer/amd64/linux', 'netboot/debian/12/x86_64/linux'],
      ['initrd', 'https://deb.debian.org/debian/dists/bookworm/main/installer-amd64/current/images/netboot/debian-installer/amd64/initrd.gz', 'netboot/debian/12/x86_64/initrd.gz'],
    ]);
    expect(result.arch.checksums).toEqual({ file: 'dists/bookworm/main/installer-amd64/current/images/SHA256SUMS', algorithm: 'sha256', strip_prefix: './' });
    expect(result.answer?.argument).toBe('auto=true priority=critical preseed/url={{ answer_url }}');
    const arm = shippedCatalog().resolve('debian', '12', 'arm64');
    expect(arm.files[0]?.path).toBe('dists/bookworm/main/installer-arm64/current/images/netboot/debian-installer/arm64/linux');
    expect(shippedCatalog().supports(arm, 'bios')).toBe(false);
  });

  it('expands {{ arch_alias }} and {{ codename }} in the command line, leaving the Liquid to the tasks part', () => {
    const fedora = shippedCatalog().resolve('fedora', undefined, 'arm64');
    expect(fedora.cmdline).toContain('/Everything/aarch64/os/');
    expect(fedora.cmdline).toContain('{{ mirror }}');
    const alpine = shippedCatalog().resolve('alpine', '3.22');
    expect(alpine.cmdline).toContain('{{ mirror }}/v3.22/main');
    expect(alpine.files[0]?.path).toBe('v3.22/releases/x86_64/netboot/vmlinuz-lts');
  });

  it('picks the default version and x86_64 when not asked, and says what exists when asked for what does not', () => {
    const catalog = shippedCatalog();
    expect(catalog.resolve('debian').version.version).toBe('13');
    expect(catalog.resolve('debian').arch.arch).toBe('x86_64');
    expect(() => catalog.resolve('beos')).toThrow(/netboot catalog entry beos not found/);
    expect(() => catalog.resolve('debian', '9')).toThrow(/has no version 9 \(versions: 13, 12, 11\)/);
    expect(() => catalog.resolve('archlinux', 'latest', 'arm64')).toThrow(/has no arm64 \(architectures: x86_64\)/);
  });

  it('gives local-only entries no URL, and takes sha256 from the architecture', () => {
    const file = structuredClone(shipped);
    const memtest = file.entries.find((entry) => entry.distro === 'memtest86plus-efi');
    const arch = memtest?.versions[0]?.architectures[0];
    if (!arch) throw new Error('memtest86plus-efi has no architecture');
    arch.sha256 = { 'memtest86+x64.efi': 'ab'.repeat(32) };
    const result = catalogOf(file).resolve('memtest86plus-efi');
    expect(result.mirror).toBeNull();
    expect(result.files).toEqual([{ role: 'kernel', path: 'memtest86+x64.efi', name: 'memtest86+x64.efi', served_path: 'netboot/memtest86plus-efi/7/x86_64/memtest86+x64.efi', url: null, sha256: 'ab'.repeat(32) }]);
  });

  it('uses a version\'s own mirror before the overlay\'s and the entry\'s', async () => {
    const file = structuredClone(shipped);
    const debian = file.entries.find((entry) => entry.distro === 'debian');
    const eleven = debian?.versions.find((version) => version.version === '11');
    if (!eleven) throw new Error('no Debian 11');
    eleven.mirror = 'https://archive.debian.org/debian';
    const catalog = catalogOf(file);
    await catalog.putOverlay('debian', { mirror: 'http://127.0.0.1:3142/debian' }, 'tester');
    expect(catalog.resolve('debian', '11').mirror).toBe('https://archive.debian.org/debian');
    expect(catalog.resolve('debian', '12').mirror).toBe('http://127.0.0.1:3142/debian');
  });

  function shippedCatalog(): NetbootCatalog {
    return catalogOf(shipped);
  }
});

describe('overlays across a catalog update', () => {
  it('keep only their fields: a newer catalog shows through, a vanished hidden version is reported', async () => {
    await catalogOf(shipped).putOverlay('debian', { hidden_versions: ['11'], cmdline: '{{ answer_argument }} DEBIAN_FRONTEND=text' }, 'tester');

    // The next release drops Debian 11 and changes the description.
    const next = structuredClone(shipped);
    const debian = next.entries.find((entry) => entry.distro === 'debian');
    if (!debian) throw new Error('no Debian');
    debian.versions = debian.versions.filter((version) => version.version !== '11');
    debian.description = 'Newer description';
    const catalog = catalogOf(next);
    const entry = catalog.entry('debian');
    expect(entry.overlay).toBe(true);
    expect(entry.description).toBe('Newer description');
    expect(entry.cmdline).toContain('DEBIAN_FRONTEND=text');
    expect(catalog.overlay('debian').warnings).toEqual(['hidden_versions: version 11 is no longer in the shipped catalog']);
  });

  it('are skipped, with the reason, when the merged entry no longer passes; and listed when their distro is gone', async () => {
    await catalogOf(shipped).putOverlay('debian', { hidden_versions: ['13', '12'] }, 'tester');
    const next = structuredClone(shipped);
    const debian = next.entries.find((entry) => entry.distro === 'debian');
    if (!debian) throw new Error('no Debian');
    debian.versions = debian.versions.filter((version) => version.version !== '11');
    next.entries = next.entries.filter((entry) => entry.distro !== 'archlinux');
    const lines: string[] = [];
    const catalog = catalogOf(next, lines);
    expect(catalog.entry('debian').overlay).toBe(false);
    expect(catalog.entry('debian').versions.map((version) => version.version)).toEqual(['13', '12']);
    expect(catalog.overlay('debian').warnings.join(' ')).toContain('the overlay no longer applies to the shipped entry, which is used instead');
    expect(lines.join('\n')).toContain('netboot overlay debian');

    await catalogOf(shipped).putOverlay('archlinux', { cmdline: 'ip=dhcp' }, 'tester');
    const without = catalogOf(next);
    expect(without.overlays().map((overlay) => overlay.distro).sort()).toEqual(['archlinux', 'debian']);
    expect(without.overlay('archlinux').warnings).toEqual(['the shipped catalog has no such distro any more: the overlay applies to nothing']);
    expect(() => without.entry('archlinux')).toThrow(/not found/);
    await without.deleteOverlay('archlinux', 'tester');
    expect(without.overlays().map((overlay) => overlay.distro)).toEqual(['debian']);
  });
});

describe('list', () => {
  it('filters by group, family, architecture and text, in boot-menu order', () => {
    const catalog = catalogOf(shipped);
    const distros = (query: Parameters<NetbootCatalog['list']>[0]) => catalog.list({ size: 500, ...query }).data.map((entry) => entry.distro);
    expect(distros({ group: 'utilities' })).toEqual(['memtest86plus-efi', 'memtest86plus-bios']);
    expect(distros({ family: 'suse' })).toEqual(['opensuse-leap']);
    expect(distros({ arch: 'arm64', family: 'redhat' })).toEqual(['fedora', 'rocky', 'almalinux']);
    expect(distros({ q: 'WIMBOOT' })).toEqual(['windows-pe']);
    expect(distros({}).at(-1)).toBe('debian-rescue');
  });
});
