import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../src-main/core/errors.js';
import type { Logger } from '../../src-main/core/logger.js';
import type { AnswerKind, CatalogEntryView, Firmware, Loader } from '../../src-main/netboot/netboot-contract.js';
import type { AnswerContext, AnswerRenderer, CatalogReader, RenderedAnswer } from '../../src-main/netboot/netboot-ports.js';
import { entryView, fakeCatalog as catalogOf } from './netboot-fake-catalog.js';
import type { CatalogListing } from '../../src-main/netboot/files/index.js';

/*
 * Small stand-ins for the catalog and answers parts of the netboot area, for
 * the install task tests (those parts are built beside this one and merged
 * later). The catalog knows a handful of entries covering every loader and
 * firmware case; the renderer returns a fixed preseed that calls back.
 */

interface FakeEntry {
  distro: string;
  name: string;
  loader: Loader;
  cmdline: string;
  answer: { kind: AnswerKind; argument: string } | null;
  versions: { version: string; codename?: string; default?: boolean }[];
  firmware: Firmware[];
  files: { role: 'kernel' | 'initrd'; name: string }[];
  mirror: string | null;
}

export const FAKE_ENTRIES: FakeEntry[] = [
  {
    distro: 'debian',
    name: 'Debian',
    loader: 'linux',
    cmdline: '{{ answer_argument }} hostname={{ variables.hostname | default: "debian" }} --- quiet',
    answer: { kind: 'preseed', argument: 'auto=true priority=critical preseed/url={{ answer_url }}' },
    versions: [{ version: '11', codename: 'bullseye' }, { version: '12', codename: 'bookworm', default: true }],
    firmware: ['bios', 'uefi'],
    files: [
      { role: 'kernel', name: 'linux' },
      { role: 'initrd', name: 'initrd.gz' },
    ],
    mirror: null,
  },
  {
    distro: 'ubuntu',
    name: 'Ubuntu',
    loader: 'linux',
    cmdline: 'ip=dhcp {{ answer_argument }} ---',
    answer: { kind: 'autoinstall', argument: 'autoinstall ds=nocloud-net;s={{ answer_seed_url }}' },
    versions: [{ version: '24.04', codename: 'noble', default: true }],
    firmware: ['uefi'],
    files: [
      { role: 'kernel', name: 'vmlinuz' },
      { role: 'initrd', name: 'initrd' },
    ],
    mirror: 'http://127.0.0.1:9/ubuntu',
  },
  {
    distro: 'winpe',
    name: 'Windows PE',
    loader: 'wimboot',
    cmdline: '',
    answer: { kind: 'autounattend', argument: 'unused' },
    versions: [{ version: '11', default: true }],
    firmware: ['bios', 'uefi'],
    files: [
      { role: 'kernel', name: 'wimboot' },
      { role: 'initrd', name: 'bootmgr' },
      { role: 'initrd', name: 'BCD' },
      { role: 'initrd', name: 'boot.sdi' },
      { role: 'initrd', name: 'boot.wim' },
    ],
    mirror: null,
  },
  {
    distro: 'memtest86plus',
    name: 'Memtest86+',
    loader: 'efi',
    cmdline: '',
    answer: null,
    versions: [{ version: '7', default: true }],
    firmware: ['uefi'],
    files: [{ role: 'kernel', name: 'memtest64.efi' }],
    mirror: null,
  },
];

function view(entry: FakeEntry): CatalogEntryView {
  const kernel = entry.files.find((file) => file.role === 'kernel')?.name ?? 'kernel';
  return entryView({
    distro: entry.distro,
    name: entry.name,
    group: 'test',
    loader: entry.loader,
    mirror: entry.mirror,
    cmdline: entry.cmdline,
    answer: entry.answer,
    versions: entry.versions.map((version) => ({
      version: version.version,
      name: version.version,
      ...(version.codename ? { codename: version.codename } : {}),
      ...(version.default ? { default: true } : {}),
      architectures: [{ arch: 'x86_64' as const, firmware: entry.firmware, kernel, initrds: entry.files.filter((file) => file.role === 'initrd').map((file) => file.name) }],
    })),
  });
}

/** The fake entries as a catalog (local files only: paths are the files' names). */
export function fakeCatalog(entries: readonly FakeEntry[] = FAKE_ENTRIES): CatalogReader & CatalogListing {
  return catalogOf(entries.map(view));
}

export const FAKE_TEMPLATES = [
  { id: 1, kind: 'preseed' as const, version: 3 },
  { id: 2, kind: 'kickstart' as const, version: 1 },
];

export interface FakeAnswers extends AnswerRenderer {
  /** The contexts rendered, in order. */
  rendered: AnswerContext[];
}

/** A renderer whose answer is a fixed preseed with the task's callback URL in it. */
export function fakeAnswers(): FakeAnswers {
  const rendered: AnswerContext[] = [];
  return {
    rendered,
    async render(templateId: number | null, kind: AnswerKind, context: AnswerContext): Promise<RenderedAnswer> {
      rendered.push(context);
      const content = [
        `# ${kind} for install task ${context.task.id} (${context.host.mac})`,
        `d-i preseed/early_command string wget -q -O /dev/null ${context.urls.callback}/installing`,
        `d-i preseed/late_command string wget -q -O /dev/null ${context.urls.callback}/done`,
        '',
      ].join('\n');
      return { content, content_type: 'text/plain; charset=utf-8', template_version: templateId === null ? null : (FAKE_TEMPLATES.find((t) => t.id === templateId)?.version ?? null) };
    },
    require(templateId: number) {
      const template = FAKE_TEMPLATES.find((t) => t.id === templateId);
      if (!template) throw new AppError('NOT_FOUND', `answer template ${templateId} not found`);
      return template;
    },
  };
}

/** A logger that keeps its lines (tests grep them for tokens). */
export function recordingLogger(lines: string[] = []): Logger & { lines: string[] } {
  const make = (level: string) => (message: string, context?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${context ? JSON.stringify(context) : ''}`);
  };
  const logger: Logger & { lines: string[] } = { lines, error: make('error'), warn: make('warn'), info: make('info'), debug: make('debug'), scope: () => logger };
  return logger;
}

/** Every fake entry's files as local files under `bootRoot` (an installer boots only when its files can be had). */
export async function writeFakeEntryFiles(bootRoot: string, entries: readonly FakeEntry[] = FAKE_ENTRIES): Promise<void> {
  for (const entry of entries) {
    for (const version of entry.versions) {
      const dir = path.join(bootRoot, 'netboot', entry.distro, version.version, 'x86_64');
      await mkdir(dir, { recursive: true });
      for (const file of entry.files) await writeFile(path.join(dir, file.name), `fake ${file.name}`);
    }
  }
}
