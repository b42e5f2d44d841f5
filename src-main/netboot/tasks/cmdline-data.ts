import type { TemplateData } from '../../templates/template-engine.js';
import type { ResolvedEntry } from '../netboot-ports.js';

/** The answer-file URLs a command line may name; absent for an interactive installer (menu choice, profile). */
export interface CmdlineAnswerUrls {
  answer: string;
  seed: string;
  callback: string;
}

/**
 * The variables of an entry's `cmdline` and `answer.argument` templates
 * (docs/netboot.md, "The catalog file"): the entry's own values, then the
 * machine, server, variables and task given. Without answer URLs the
 * `answer_*` values are empty: the installer runs interactively.
 */
export function entryCmdlineData(
  resolved: ResolvedEntry,
  given: { host: Record<string, unknown>; server: Record<string, unknown>; variables: Record<string, unknown>; task: Record<string, unknown> | null; urls: CmdlineAnswerUrls | null },
): TemplateData {
  const urls = resolved.answer === null ? null : given.urls;
  return {
    answer_url: urls === null ? '' : resolved.answer?.kind === 'autoinstall' ? urls.seed : urls.answer,
    answer_seed_url: urls?.seed ?? '',
    callback_url: urls?.callback ?? '',
    mirror: resolved.mirror ?? '',
    version: resolved.version.version,
    codename: resolved.version.codename ?? '',
    arch: resolved.arch.arch,
    arch_alias: resolved.entry.arch_aliases?.[resolved.arch.arch] ?? resolved.arch.arch,
    host: given.host,
    server: given.server,
    variables: given.variables,
    task: given.task,
  };
}
