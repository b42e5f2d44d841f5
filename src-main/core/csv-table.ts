import { parse } from 'csv-parse/sync';

/** One data row of a CSV table: its cells by (lowercased) column name and the file line it ended on. */
export interface CsvTableRow {
  line: number;
  cells: Record<string, string>;
  /** Set when the row cannot be read as the header says (a wrong field count); its cells are then empty. */
  problem?: string;
}

/** A problem with the file as a whole (no header, bad CSV, unknown or repeated column, too many rows). */
export interface CsvTableProblem {
  line: number;
  column: string | null;
  message: string;
}

export type CsvTable = { ok: true; columns: string[]; rows: CsvTableRow[] } | { ok: false; problem: CsvTableProblem };

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Reads an import file (RFC 4180 CSV, UTF-8, optional BOM): a header row
 * naming columns from `known` in any order, then one record per row. Cells
 * are trimmed; blank lines are skipped. The file is refused as a whole when
 * it cannot be read as a table; the cells' meaning is the caller's to check.
 */
export function readCsvTable(text: string, options: { known: readonly string[]; required: readonly string[]; maxRows: number }): CsvTable {
  let records: CsvRecord[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as unknown as CsvRecord[];
  } catch (err) {
    const line = typeof (err as { lines?: unknown }).lines === 'number' ? (err as { lines: number }).lines : 1;
    return { ok: false, problem: { line, column: null, message: `not valid CSV: ${(err as Error).message}` } };
  }
  const header = records[0];
  if (!header) return { ok: false, problem: { line: 1, column: null, message: 'the file is empty; expected a header row' } };
  const columns = header.record.map((cell) => cell.toLowerCase());
  const unknown = columns.find((column) => !options.known.includes(column));
  if (unknown !== undefined) {
    return { ok: false, problem: { line: 1, column: unknown, message: `unknown column "${unknown}"; columns are ${options.known.join(', ')}` } };
  }
  const missing = options.required.find((column) => !columns.includes(column));
  if (missing !== undefined) return { ok: false, problem: { line: 1, column: missing, message: `the header lacks the required column "${missing}"` } };
  const twice = columns.find((column, index) => columns.indexOf(column) !== index);
  if (twice !== undefined) return { ok: false, problem: { line: 1, column: twice, message: `column "${twice}" appears twice in the header` } };
  if (records.length - 1 > options.maxRows) {
    return { ok: false, problem: { line: 1, column: null, message: `at most ${options.maxRows} rows per import, the file has ${records.length - 1}` } };
  }
  const rows: CsvTableRow[] = [];
  for (const { record, info } of records.slice(1)) {
    if (record.length !== columns.length) {
      rows.push({ line: info.lines, cells: {}, problem: `has ${record.length} fields, the header has ${columns.length}` });
      continue;
    }
    const cells: Record<string, string> = {};
    columns.forEach((column, index) => (cells[column] = record[index] ?? ''));
    rows.push({ line: info.lines, cells });
  }
  return { ok: true, columns, rows };
}
