import { parse } from 'csv-parse/sync';
import { normalizeMac } from '../core/mac.js';
import { BMC_PROTOCOLS, type BmcProtocol } from './bmc-client.js';
import type { BmcConfigInput } from './bmc-config-types.js';
import { CSV_COLUMNS, CSV_REQUIRED_COLUMNS, type CsvProblem } from './power-contract.js';

/** Columns of the import file (the header row names them, in any order) and the problem report: in the contract. */
export { CSV_COLUMNS, CSV_REQUIRED_COLUMNS, type CsvProblem } from './power-contract.js';
/** Most rows one import takes (the body limit is 1 MiB anyway). */
export const CSV_MAX_ROWS = 5_000;

export interface CsvRow {
  line: number;
  input: BmcConfigInput;
  /** Normalised host MAC, when the column is filled. */
  hostMac: string | null;
}

export interface ParsedCsv {
  rows: CsvRow[];
  problems: CsvProblem[];
  /** Set when the file as a whole is unusable (no header, a parse error): nothing can be imported. */
  fatal: boolean;
  /** Data rows in the file (without the header), good or bad. */
  dataRows: number;
}

const TRUE_WORDS = new Set(['true', 'yes', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', '0', 'off']);

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Parses a BMC import file (RFC 4180 CSV, UTF-8, optional BOM): a header
 * row, then one config per line. Only the shape of each cell is checked
 * here; the service checks the configs as it checks API input.
 */
export function parseBmcCsv(text: string): ParsedCsv {
  let records: CsvRecord[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as unknown as CsvRecord[];
  } catch (err) {
    const line = typeof (err as { lines?: unknown }).lines === 'number' ? (err as { lines: number }).lines : 1;
    return { rows: [], problems: [{ line, column: null, message: `not valid CSV: ${(err as Error).message}` }], fatal: true, dataRows: 0 };
  }
  const header = records[0];
  if (!header) return { rows: [], problems: [{ line: 1, column: null, message: 'the file is empty; expected a header row' }], fatal: true, dataRows: 0 };
  const columns = header.record.map((cell) => cell.toLowerCase());
  const problems: CsvProblem[] = [];
  columns.forEach((column) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(column)) {
      problems.push({ line: header.info.lines, column, message: `unknown column "${column}"; columns are ${CSV_COLUMNS.join(', ')}` });
    }
  });
  for (const required of CSV_REQUIRED_COLUMNS) {
    if (!columns.includes(required)) problems.push({ line: header.info.lines, column: required, message: `the header lacks the required column "${required}"` });
  }
  if (new Set(columns).size !== columns.length) problems.push({ line: header.info.lines, column: null, message: 'a column appears twice in the header' });
  const dataRows = records.length - 1;
  if (problems.length > 0) return { rows: [], problems, fatal: true, dataRows };
  if (dataRows > CSV_MAX_ROWS) {
    return { rows: [], problems: [{ line: 1, column: null, message: `at most ${CSV_MAX_ROWS} rows per import, the file has ${dataRows}` }], fatal: true, dataRows };
  }

  const rows: CsvRow[] = [];
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    if (record.length !== columns.length) {
      problems.push({ line, column: null, message: `has ${record.length} fields, the header has ${columns.length}` });
      continue;
    }
    const cell = (column: string): string => record[columns.indexOf(column)] ?? '';
    const rowProblems: CsvProblem[] = [];
    const input: BmcConfigInput = { name: cell('name'), address: cell('address'), username: cell('username') };
    if (columns.includes('password')) input.password = cell('password');
    const port = cell('port');
    if (port !== '') {
      if (/^\d{1,5}$/.test(port)) input.port = Number(port);
      else rowProblems.push({ line, column: 'port', message: `"${port}" is not a port number` });
    }
    const protocol = cell('protocol').toLowerCase();
    if (protocol !== '') {
      if ((BMC_PROTOCOLS as readonly string[]).includes(protocol)) input.protocol = protocol as BmcProtocol;
      else rowProblems.push({ line, column: 'protocol', message: `"${protocol}" is not one of ${BMC_PROTOCOLS.join(', ')}` });
    }
    const verify = cell('verify_tls').toLowerCase();
    if (verify !== '') {
      if (TRUE_WORDS.has(verify)) input.verify_tls = true;
      else if (FALSE_WORDS.has(verify)) input.verify_tls = false;
      else rowProblems.push({ line, column: 'verify_tls', message: `"${verify}" is not true or false` });
    }
    let hostMac: string | null = null;
    const mac = cell('host_mac');
    if (mac !== '') {
      hostMac = normalizeMac(mac);
      if (!hostMac) rowProblems.push({ line, column: 'host_mac', message: `"${mac}" is not a MAC address` });
    }
    if (rowProblems.length > 0) problems.push(...rowProblems);
    else rows.push({ line, input, hostMac });
  }
  return { rows, problems, fatal: false, dataRows };
}
