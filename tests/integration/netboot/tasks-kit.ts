import type { AppEvent } from '../../../src-main/events/event-types.js';
import type { InstallTask } from '../../../src-main/netboot/netboot-contract.js';
import { fakeAnswers, fakeCatalog, writeFakeEntryFiles, type FakeAnswers } from '../../helpers/netboot-fakes.js';
import { loginHeaders } from '../../helpers/auth.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

/** A real core whose netboot catalog and answer renderer are the test fakes, HTTP listening on loopback, a movable task clock. */
export interface TasksLab {
  t: TestCore;
  answers: FakeAnswers;
  base: string;
  clock: { now: number };
  operator: Record<string, string>;
  viewer: Record<string, string>;
  close(): Promise<void>;
}

export async function tasksLab(): Promise<TasksLab> {
  const clock = { now: Date.now() };
  const answers = fakeAnswers();
  const t = await createTestCore({ netboot: { catalogReader: fakeCatalog(), answerRenderer: answers, now: () => new Date(clock.now) } });
  await t.core.kernel.services.start('http');
  // Every fake entry's files, local under the boot root: the installer boots only when its files can be had.
  await writeFakeEntryFiles(t.core.area('boot-files').files.root);
  const operator = await loginHeaders(t.core, 'operator');
  const viewer = await loginHeaders(t.core, 'viewer');
  return { t, answers, base: t.core.url(), clock, operator, viewer, close: () => t.close() };
}

export interface Reply<T = unknown> {
  status: number;
  body: { success: boolean; data: T; error?: string; code?: string };
  headers: Record<string, unknown>;
  text: string;
}

export async function call<T = unknown>(lab: TasksLab, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { body?: unknown; headers?: Record<string, string>; remoteAddress?: string } = {}): Promise<Reply<T>> {
  const response = await lab.t.core.http.inject({
    method,
    url: `/api/v1${url}`,
    headers: options.headers ?? lab.operator,
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  let body: Reply<T>['body'];
  try {
    body = JSON.parse(response.body) as Reply<T>['body'];
  } catch {
    body = { success: false, data: undefined as T };
  }
  return { status: response.statusCode, body, headers: response.headers, text: response.body };
}

export async function createTask(lab: TasksLab, body: Record<string, unknown>): Promise<InstallTask> {
  const reply = await call<InstallTask>(lab, 'POST', '/netboot/tasks', { body });
  if (reply.status !== 201) throw new Error(`create task: ${reply.status} ${reply.text}`);
  return reply.body.data;
}

/** The query iPXE sends to the per-host script after expanding ${mac} & co. */
export function identity(mac: string, platform = 'efi'): string {
  return `mac=${encodeURIComponent(mac)}&arch=x86_64&platform=${platform}&uuid=12345678-1234-1234-1234-123456789abc&serial=SN1`;
}

/** The machine's own boot script over real HTTP /boot/ (the per-host URL of the entry script). */
export async function bootScript(lab: TasksLab, mac: string, platform = 'efi'): Promise<string> {
  const response = await fetch(`${lab.base}/boot/ipxe/boot.ipxe?${identity(mac, platform)}`);
  if (response.status !== 200) throw new Error(`boot script: ${response.status}`);
  return response.text();
}

/** The answer URL the installer script hands the kernel. */
export function answerUrlIn(script: string): string {
  const match = /preseed\/url=(\S+)/.exec(script);
  if (!match?.[1]) throw new Error(`no preseed/url in\n${script}`);
  return match[1];
}

export function eventsSince(lab: TasksLab, id: number, kind?: string): AppEvent[] {
  return lab.t.core.kernel.events.since(id).filter((event) => kind === undefined || event.kind === kind);
}

export function lastEventId(lab: TasksLab): number {
  return lab.t.core.kernel.events.all().at(-1)?.id ?? 0;
}

let macCounter = 0;
export function nextMac(): string {
  macCounter += 1;
  return `52:54:00:c0:${(macCounter >> 8).toString(16).padStart(2, '0')}:${(macCounter & 0xff).toString(16).padStart(2, '0')}`;
}
