import type { Host } from '../../hosts/host-types.js';
import type { ServerEndpoint } from '../../profiles/template-context.js';
import type { TemplateData } from '../../templates/template-engine.js';
import type { TemplateRenderer } from '../../templates/template-renderer.js';
import type { ResolvedEntry } from '../netboot-ports.js';
import { entryCmdlineData } from './cmdline-data.js';
import { installerProgram, installerScript, servedFileUrl, type InstallerScriptInput } from './installer-script.js';
import type { BootProgram } from '../../boot-scripts/boot-program.js';
import { taskLabel, type InstallTaskService } from './install-task-service.js';
import { debianMirror, imageUrls, plannedFiles, substituteImageUrls, type LocalBootSources, type PlannedFile, type TaskBootPlan } from './task-boot-plan.js';
import { taskUrls, type TaskUrls } from './task-urls.js';
import type { TaskRow } from './task-types.js';

/** The server a machine reached, as templates name it. */
export type TaskServer = ServerEndpoint & { name: string };

/** What one machine is told to boot for its task. */
export interface Installer {
  resolved: ResolvedEntry;
  label: string;
  kernelUrl: string;
  initrdUrls: string[];
  /** Rendered, not yet escaped for iPXE. */
  cmdline: string;
  /** The answer URL the installer is given (the seed directory for cloud-init), or null when the entry has no answer file. */
  answerUrl: string | null;
  urls: TaskUrls;
  /** Where the files come from (an OS image or the entry's own), docs/netboot.md "Installing from an OS image (offline)". */
  plan: TaskBootPlan;
  /** The files the script loads: the image's when it boots from one, else the entry's. */
  files: readonly PlannedFile[];
}

/**
 * Builds a task's installer for a machine: the entry's files at their served
 * paths and its command line (Liquid, in the templates sandbox) with the
 * task's answer URL in it.
 */
export class TaskInstaller {
  constructor(private readonly deps: { tasks: InstallTaskService; templates: TemplateRenderer; local: LocalBootSources }) {}

  /** `mount`: a machine is about to boot it (a linked image is mounted now); false for previews. */
  async build(row: TaskRow, server: TaskServer, host: Host | null, options: { mount: boolean } = { mount: true }): Promise<Installer> {
    const resolved = this.deps.tasks.resolve(row);
    const plan = await this.deps.local.plan(resolved, options);
    const token = await this.deps.tasks.token(row);
    const urls = taskUrls(server.base_url, row.id, token);
    const data = taskCmdlineData(row, resolved, server, host, urls);
    const answerUrl = resolved.answer === null ? null : String(data.answer_url);
    const answerArgument = resolved.answer === null ? '' : await this.deps.templates.render(resolved.answer.argument, data);
    const cmdline = await this.cmdline(resolved.cmdline, plan, server, data, answerArgument);
    const files = plannedFiles(resolved, plan);
    const kernel = files.find((file) => file.role === 'kernel');
    return {
      resolved,
      label: taskLabel(row, resolved),
      kernelUrl: kernel ? servedFileUrl(server.boot_url, kernel.served_path) : '',
      initrdUrls: files.filter((file) => file.role === 'initrd').map((file) => servedFileUrl(server.boot_url, file.served_path)),
      cmdline,
      answerUrl,
      urls,
      plan,
      files,
    };
  }

  /**
   * The entry's command line; booting an image's own installer, the image's
   * network command line (detection's, its URLs filled in) with the answer
   * argument; Debian with the image as its mirror, the entry's plus the
   * mirror arguments.
   */
  private async cmdline(template: string, plan: TaskBootPlan, server: TaskServer, data: TemplateData, answerArgument: string): Promise<string> {
    const local = plan.local;
    if (local && local.cmdline !== null) return `${substituteImageUrls(local.cmdline, imageUrls(local, server.boot_url))} ${answerArgument}`.replace(/\s+/g, ' ').trim();
    const own = (await this.deps.templates.render(template, { ...data, answer_argument: answerArgument })).trim();
    const mirror = local ? debianMirror(local, server.boot_url) : null;
    return mirror ? `${own} ${mirror.args}` : own;
  }

  /** The iPXE script of the installer; throws AppError VALIDATION_FAILED when the command line cannot be written in iPXE. */
  script(row: TaskRow, installer: Installer, server: TaskServer): string {
    return installerScript(scriptInput(row, installer, server));
  }

  /** The same installer for machines on GRUB (boot-scripts/boot-program.ts). */
  program(row: TaskRow, installer: Installer, server: TaskServer): BootProgram {
    return installerProgram(scriptInput(row, installer, server));
  }
}

function scriptInput(row: TaskRow, installer: Installer, server: TaskServer): InstallerScriptInput {
  return { taskId: row.id, label: installer.label, loader: installer.resolved.entry.loader, files: installer.files, bootUrl: server.boot_url, cmdline: installer.cmdline };
}

/** The task's command-line variables: its machine, server, variables and answer URLs. */
function taskCmdlineData(row: TaskRow, resolved: ResolvedEntry, server: TaskServer, host: Host | null, urls: TaskUrls): TemplateData {
  return entryCmdlineData(resolved, {
    host: { id: host?.id ?? null, mac: row.mac, hostname: host?.hostname ?? null, ip: host?.ip ?? null, group: host?.group ?? null, arch: host?.arch ?? null, platform: host?.platform ?? null },
    server: { ...server },
    variables: { ...row.variables },
    task: { id: row.id, distro: row.distro, version: row.version, arch: row.arch },
    urls,
  });
}
