import type { BootLoaders } from '../settings/settings-contract.js';
import type { BootFileCheck, CheckArchitecture, CheckArchitectureId, CheckProblem } from './boot-files-contract.js';
import { CHECK_ARCHITECTURES, type Seen } from './check-architectures.js';
import type { GrubUse } from './grub-usage.js';

/*
 * Ranks the boot-loader check by the architectures machines were actually
 * seen with: the default archmap names iPXE builds for RISC-V, LoongArch,
 * IA32 and ARM32 that Bootwright does not ship, and on a site without such
 * machines those warnings would drown the one that matters (ARM64 machines
 * booting, its shim missing). Problems of architectures nobody booted keep
 * their errors (a broken bundled file is still broken) but their warnings
 * become info, and they come last.
 */

/** Whether any of `architectures` was seen; a file or problem of no known architecture concerns everyone. */
export function anySeen(architectures: readonly CheckArchitectureId[], seen: ReadonlyMap<CheckArchitectureId, Seen>): boolean {
  return architectures.length === 0 || architectures.some((architecture) => seen.has(architecture));
}

/** Whether every one of `architectures` is ignored; a problem of all architectures (none named) never is. */
export function allIgnored(architectures: readonly CheckArchitectureId[], ignored: ReadonlySet<CheckArchitectureId>): boolean {
  return architectures.length > 0 && architectures.every((architecture) => ignored.has(architecture));
}

/**
 * Lowers the warnings of a file nobody fetching it was seen with to info, and
 * every problem of a file only ignored architectures fetch (in place); recomputes `ok`.
 */
export function rankFile(file: BootFileCheck): BootFileCheck {
  for (const problem of file.problems) {
    if (file.ignored || (!file.seen && problem.severity === 'warning')) problem.severity = 'info';
  }
  file.ok = file.problems.every((problem) => problem.severity !== 'error');
  return file;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Seen first, then errors before warnings before info, ignored ones last; otherwise as found (a stable sort). */
export function rankProblems(problems: CheckProblem[]): CheckProblem[] {
  for (const problem of problems) if (problem.ignored || (!problem.seen && problem.severity === 'warning')) problem.severity = 'info';
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort(
      (a, b) =>
        Number(a.problem.ignored) - Number(b.problem.ignored) ||
        Number(b.problem.seen) - Number(a.problem.seen) ||
        SEVERITY_ORDER[a.problem.severity] - SEVERITY_ORDER[b.problem.severity] ||
        a.index - b.index,
    )
    .map(({ problem }) => problem);
}

/**
 * One summary per architecture: seen ones first (most machines first), then
 * the rest in table order; `other` only when something concerns it.
 */
export function architectureSummaries(deps: {
  seen: ReadonlyMap<CheckArchitectureId, Seen>;
  loaders: BootLoaders | null;
  grub: readonly GrubUse[];
  problems: readonly CheckProblem[];
  ignored: ReadonlySet<CheckArchitectureId>;
}): CheckArchitecture[] {
  const summaries = CHECK_ARCHITECTURES.map((info, order): CheckArchitecture & { order: number } => {
    const seen = deps.seen.get(info.id);
    const mine = deps.problems.filter((problem) => problem.architectures.includes(info.id));
    const grub = deps.grub.find((use) => use.architecture === info.id);
    const loader = info.id === 'uefi_x64' || info.id === 'uefi_arm64' ? (deps.loaders?.[info.id] ?? 'ipxe') : null;
    return {
      order,
      id: info.id,
      name: info.name,
      codes: [...info.codes],
      seen: seen !== undefined,
      machines: seen?.machines ?? 0,
      seen_by: { leases: seen?.leases ?? 0, events: seen?.events ?? 0, hosts: seen?.hosts ?? 0 },
      loader,
      grub: grub !== undefined,
      grub_reasons: grub?.reasons ?? [],
      ignored: deps.ignored.has(info.id),
      errors: mine.filter((problem) => problem.severity === 'error').length,
      warnings: mine.filter((problem) => problem.severity === 'warning').length,
      infos: mine.filter((problem) => problem.severity === 'info').length,
    };
  });
  return summaries
    .filter((summary) => summary.id !== 'other' || summary.seen || summary.errors + summary.warnings + summary.infos > 0)
    .sort((a, b) => Number(a.ignored) - Number(b.ignored) || Number(b.seen) - Number(a.seen) || b.machines - a.machines || a.order - b.order)
    .map(({ order: _order, ...summary }) => summary);
}
