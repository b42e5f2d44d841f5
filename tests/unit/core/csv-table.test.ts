import { describe, expect, it } from 'vitest';
import { readCsvTable } from '../../../src-main/core/csv-table.js';

const options = { known: ['mac', 'ip', 'note'], required: ['mac'], maxRows: 3 };

describe('readCsvTable', () => {
  it('reads cells by lowercased column, trimmed, with the line each row ends on (quoted newlines, BOM, blank lines)', () => {
    const table = readCsvTable('\uFEFFMAC, ip ,note\n52:54:00:00:00:01 ,10.0.0.1,"two\nlines"\n\n52:54:00:00:00:02,,\n', options);
    expect(table).toEqual({
      ok: true,
      columns: ['mac', 'ip', 'note'],
      rows: [
        { line: 3, cells: { mac: '52:54:00:00:00:01', ip: '10.0.0.1', note: 'two\nlines' } },
        { line: 5, cells: { mac: '52:54:00:00:00:02', ip: '', note: '' } },
      ],
    });
  });

  it('refuses the file as a whole: empty, unknown, missing or repeated column, too many rows, broken quoting', () => {
    expect(readCsvTable('', options)).toMatchObject({ ok: false, problem: { line: 1, message: expect.stringMatching(/empty/) } });
    expect(readCsvTable('mac,colour\n', options)).toMatchObject({ ok: false, problem: { column: 'colour' } });
    expect(readCsvTable('ip\n10.0.0.1\n', options)).toMatchObject({ ok: false, problem: { column: 'mac' } });
    expect(readCsvTable('mac,MAC\n', options)).toMatchObject({ ok: false, problem: { column: 'mac' } });
    expect(readCsvTable('mac\na\nb\nc\nd\n', options)).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/at most 3 rows/) } });
    expect(readCsvTable('mac\n"unterminated\n', options)).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/not valid CSV/) } });
  });

  it('reports a row with the wrong field count as that row\'s problem', () => {
    const table = readCsvTable('mac,ip\na,b,c\nd,e\n', options);
    expect(table).toMatchObject({ ok: true, rows: [{ line: 2, cells: {}, problem: 'has 3 fields, the header has 2' }, { line: 3, cells: { mac: 'd', ip: 'e' } }] });
  });
});
