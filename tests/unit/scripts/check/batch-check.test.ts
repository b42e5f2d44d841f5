import { describe, expect, it } from 'vitest';
import { checkBatch, CMD_MAX_LINE } from '../../../../src-main/scripts/check/batch-check.js';

describe('checkBatch', () => {
  it('accepts CRLF or LF endings', () => {
    expect(checkBatch('@echo off\r\necho hi\r\n')).toEqual([]);
    expect(checkBatch('@echo off\necho hi\n')).toEqual([]);
  });

  it('warns on mixed endings and on lines longer than cmd.exe reads', () => {
    expect(checkBatch('a\r\nb\nc\r\n')).toEqual([expect.objectContaining({ severity: 'warning', line: null, message: expect.stringContaining('mixes') })]);
    const long = `echo ${'x'.repeat(CMD_MAX_LINE)}`;
    expect(checkBatch(`@echo off\r\n${long}\r\n`)).toEqual([expect.objectContaining({ severity: 'warning', line: 2 })]);
    expect(checkBatch(`${'x'.repeat(CMD_MAX_LINE)}\r\n`)).toEqual([]);
  });
});
