import { readCsvTable } from '../core/csv-table.js';
import { isAppError } from '../core/errors.js';
import { normalizeMac } from '../core/mac.js';
import { finishImport, reportProblems } from '../dhcp/reservation-import.js';
import type { NewRow, RowPatch } from '../store/collection.js';
import type { HostService } from './host-service.js';
import { ARCH_PATTERN, HOST_IMPORT_COLUMNS, MAX_HOST_IMPORT_ROWS, MAX_HOST_TAGS, type HostImportRow, type ImportMode, type ImportProblem, type ImportReport } from './hosts-contract.js';
import type { Host, HostInput } from './host-types.js';
import { newHostRow, normalizeHostInput } from './host-validation.js';
import { definedOnly } from '../core/defined-only.js';

/** A problem of one row: its index among the rows, the field and what is wrong. */
export interface RowProblem {
  index: number;
  field: string | null;
  message: string;
}

/** What an import will do, row by row; it writes only when `problems` is empty. */
export interface HostImportPlan {
  creates: { index: number; value: NewRow<Host> }[];
  updates: { index: number; id: number; patch: RowPatch<Host> }[];
  problems: RowProblem[];
}

/** What the plan looks up: the stored hosts and profiles. */
export interface HostImportLookups {
  findByMac(mac: string): Host | undefined;
  profileExists(id: number): boolean;
  profileIdByName(name: string): number | undefined;
}

const TRUE_WORDS = new Set(['true', 'yes', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', '0', 'off']);
const ARCH = new RegExp(ARCH_PATTERN);

/**
 * Reads the hosts of a CSV file (columns HOST_IMPORT_COLUMNS, `mac`
 * required). An empty cell is a field not given: a new host gets the
 * default, an updated one keeps its stored value. Problems of the file as a
 * whole come back as row 0.
 */
export function hostRowsFromCsv(text: string): { rows: HostImportRow[]; lines: number[]; problems: ImportProblem[] } {
  const table = readCsvTable(text, { known: HOST_IMPORT_COLUMNS, required: ['mac'], maxRows: MAX_HOST_IMPORT_ROWS });
  if (!table.ok) return { rows: [], lines: [], problems: [{ row: 0, line: table.problem.line, field: table.problem.column, message: table.problem.message }] };
  const rows: HostImportRow[] = [];
  const lines: number[] = [];
  const problems: ImportProblem[] = [];
  table.rows.forEach(({ line, cells, problem }, index) => {
    const report = (field: string | null, message: string): void => void problems.push({ row: index + 1, line, field, message });
    if (problem !== undefined) report(null, problem);
    const row: HostImportRow = { mac: cells.mac ?? '' };
    if (cells.hostname) row.hostname = cells.hostname;
    if (cells.ip) row.ip = cells.ip;
    if (cells.profile) row.profile = cells.profile;
    if (cells.group) row.group = cells.group;
    if (cells.description) row.description = cells.description;
    if (cells.arch) row.arch = cells.arch;
    if (cells.tags) row.tags = cells.tags.split(';').map((tag) => tag.trim()).filter((tag) => tag !== '');
    if (cells.profile_id) {
      if (/^[1-9]\d{0,9}$/.test(cells.profile_id)) row.profile_id = Number(cells.profile_id);
      else report('profile_id', `"${cells.profile_id}" is not a profile id`);
    }
    if (cells.enabled) {
      const word = cells.enabled.toLowerCase();
      if (TRUE_WORDS.has(word)) row.enabled = true;
      else if (FALSE_WORDS.has(word)) row.enabled = false;
      else report('enabled', `"${cells.enabled}" is not true or false`);
    }
    if (cells.boot_loader) {
      const loader = cells.boot_loader.toLowerCase();
      if (loader === 'ipxe' || loader === 'grub') row.boot_loader = loader;
      else if (loader === 'default') row.boot_loader = null;
      else report('boot_loader', `"${cells.boot_loader}" is not a boot loader (ipxe, grub or default)`);
    }
    rows.push(row);
    lines.push(line);
  });
  return { rows, lines, problems };
}

/**
 * Checks every row — its fields as the hosts API checks them, its profile,
 * its MAC and address against the other rows, its MAC against the stored
 * hosts (`create` refuses a stored MAC, `upsert` updates that host) — and
 * says what the import would write. The DHCP reservations are checked by the
 * caller, which knows the ids.
 */
export function planHostImport(rows: readonly HostImportRow[], mode: ImportMode, lookups: HostImportLookups): HostImportPlan {
  const plan: HostImportPlan = { creates: [], updates: [], problems: [] };
  const macRows = new Map<string, number>();
  const ipRows = new Map<string, number>();
  rows.forEach((row, index) => {
    const problems: RowProblem[] = [];
    const report = (field: string | null, message: string): void => void problems.push({ index, field, message });
    const { profile, ...fields } = row;
    let input: HostInput = fields;
    try {
      input = normalizeHostInput(fields);
    } catch (err) {
      if (!isAppError(err)) throw err;
      for (const detail of err.details ?? []) report(detail.field.replace(/^body\./, ''), detail.message);
    }
    if (input.arch !== undefined && input.arch !== null && !ARCH.test(input.arch)) report('arch', `"${input.arch}" is not an iPXE architecture (${ARCH_PATTERN})`);
    if (input.tags !== undefined && input.tags.length > MAX_HOST_TAGS) report('tags', `at most ${MAX_HOST_TAGS} tags`);
    let profileId = input.profile_id;
    if (profile !== undefined && profile !== null) {
      const byName = lookups.profileIdByName(profile);
      if (byName === undefined) report('profile', `no profile is named "${profile}"`);
      else if (profileId !== undefined && profileId !== null && profileId !== byName) report('profile', `names profile ${byName}, but profile_id is ${profileId}`);
      else profileId = byName;
    } else if (profileId !== undefined && profileId !== null && !lookups.profileExists(profileId)) {
      report('profile_id', `profile ${profileId} does not exist`);
    }
    const mac = normalizeMac(row.mac);
    const stored = mac === null ? undefined : lookups.findByMac(mac);
    if (mac !== null) {
      const earlier = macRows.get(mac);
      if (earlier !== undefined) report('mac', `${mac} is also on row ${earlier + 1}`);
      else macRows.set(mac, index);
      if (stored && mode === 'create') report('mac', `${mac} belongs to host ${stored.id}; use mode=upsert to update it`);
    }
    if (typeof input.ip === 'string' && !problems.some((p) => p.field === 'ip')) {
      const earlier = ipRows.get(input.ip);
      if (earlier !== undefined) report('ip', `${input.ip} is also on row ${earlier + 1}`);
      else ipRows.set(input.ip, index);
    }
    if (problems.length > 0) {
      plan.problems.push(...problems);
      return;
    }
    const value = { ...input, ...(profileId !== undefined ? { profile_id: profileId } : {}) };
    if (stored) {
      // An imported row adopts a discovered host: someone listed it on purpose.
      plan.updates.push({ index, id: stored.id, patch: { ...definedOnly({ ...value, mac: undefined }), discovered: false } });
    } else {
      plan.creates.push({ index, value: newHostRow({ ...value, mac: value.mac!, discovered: false }) });
    }
  });
  return plan;
}

/** What a hosts import request carries: the CSV text, or the JSON rows. */
export type HostImportSource = { csv: string } | { rows: readonly HostImportRow[] };

/** POST /hosts/import: parse, check every row and reservation, then write all or nothing (or, dry, report). */
export async function importHosts(
  hosts: Pick<HostService, 'importHosts'>,
  source: HostImportSource,
  options: { mode: ImportMode; dryRun: boolean },
): Promise<ImportReport> {
  const parsed = 'csv' in source ? hostRowsFromCsv(source.csv) : { rows: [...source.rows], lines: null, problems: [] };
  const base = { dry_run: options.dryRun, mode: options.mode, rows: parsed.rows.length };
  if (parsed.problems.some((p) => p.row === 0)) return finishImport({ ...base, created: 0, updated: 0, problems: parsed.problems });
  // Rows with a cell that could not be read are still checked (every problem is reported), but nothing is written.
  const result = await hosts.importHosts(parsed.rows, { ...options, dryRun: options.dryRun || parsed.problems.length > 0 });
  const problems = [...parsed.problems, ...reportProblems(result.problems, parsed.lines)].sort((a, b) => a.row - b.row);
  return finishImport({ ...base, created: result.created, updated: result.updated, problems });
}
