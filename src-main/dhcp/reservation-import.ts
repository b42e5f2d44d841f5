import { readCsvTable } from '../core/csv-table.js';
import { validationError } from '../core/errors.js';
import {
  MAX_IMPORT_PROBLEMS,
  MAX_RESERVATION_IMPORT_ROWS,
  RESERVATION_IMPORT_COLUMNS,
  type ImportMode,
  type ImportProblem,
  type ImportReport,
  type ReservationImportRow,
} from './dhcp-contract.js';
import type { BatchProblem, Reservations } from './reservations.js';

/** What an import request carries: the CSV text, or the JSON rows. */
export type ImportSource = { csv: string } | { rows: readonly ReservationImportRow[] };

/**
 * Reads the reservations of a CSV file: an empty cell is a field not given
 * (upsert keeps the stored value). Problems of the file as a whole come back
 * as row 0.
 */
export function reservationRowsFromCsv(text: string): { rows: ReservationImportRow[]; lines: number[]; problems: ImportProblem[] } {
  const table = readCsvTable(text, { known: RESERVATION_IMPORT_COLUMNS, required: ['mac', 'ip'], maxRows: MAX_RESERVATION_IMPORT_ROWS });
  if (!table.ok) return { rows: [], lines: [], problems: [{ row: 0, line: table.problem.line, field: table.problem.column, message: table.problem.message }] };
  const rows: ReservationImportRow[] = [];
  const lines: number[] = [];
  const problems: ImportProblem[] = [];
  table.rows.forEach(({ line, cells, problem }, index) => {
    if (problem !== undefined) problems.push({ row: index + 1, line, field: null, message: problem });
    const row: ReservationImportRow = { mac: cells.mac ?? '', ip: cells.ip ?? '' };
    if (cells.hostname) row.hostname = cells.hostname;
    if (cells.boot_file) row.boot_file = cells.boot_file;
    rows.push(row);
    lines.push(line);
  });
  return { rows, lines, problems };
}

/** Turns the problems of a batch into the report's rows (1-based) and lines. */
export function reportProblems(problems: readonly BatchProblem[], lines: readonly number[] | null): ImportProblem[] {
  return problems.map((p) => ({ row: p.index + 1, line: lines?.[p.index] ?? null, field: p.field, message: p.message }));
}

/**
 * The report of an import, or — when it was not a dry run and something is
 * wrong — one VALIDATION_FAILED listing the problems (`rows[<row>].<field>`):
 * nothing was written.
 */
export function finishImport(report: Omit<ImportReport, 'problems' | 'problem_count'> & { problems: ImportProblem[] }): ImportReport {
  const all = report.problems;
  if (all.length > 0 && !report.dry_run) {
    throw validationError(
      all.slice(0, MAX_IMPORT_PROBLEMS).map((p) => ({ field: `rows[${p.row}]${p.field ? `.${p.field}` : ''}`, message: p.line !== null ? `line ${p.line}: ${p.message}` : p.message })),
    );
  }
  return { ...report, problems: all.slice(0, MAX_IMPORT_PROBLEMS), problem_count: all.length };
}

/** POST /dhcp/reservations/import: parse, check every row, then write all or nothing. */
export async function importReservations(
  reservations: Pick<Reservations, 'importRows'>,
  source: ImportSource,
  options: { mode: ImportMode; dryRun: boolean },
): Promise<ImportReport> {
  const parsed = 'csv' in source ? reservationRowsFromCsv(source.csv) : { rows: [...source.rows], lines: null, problems: [] };
  const base = { dry_run: options.dryRun, mode: options.mode, rows: parsed.rows.length };
  if (parsed.problems.some((p) => p.row === 0)) return finishImport({ ...base, created: 0, updated: 0, problems: parsed.problems });
  // Rows with a cell that could not be read are still checked (every problem is reported), but nothing is written.
  const result = await reservations.importRows(parsed.rows, { ...options, dryRun: options.dryRun || parsed.problems.length > 0 });
  const problems = [...parsed.problems, ...reportProblems(result.problems, parsed.lines)].sort((a, b) => a.row - b.row);
  return finishImport({ ...base, created: result.created, updated: result.updated, problems });
}
