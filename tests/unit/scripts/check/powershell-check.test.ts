import { describe, expect, it } from 'vitest';
import { checkPowerShell } from '../../../../src-main/scripts/check/powershell-check.js';

describe('checkPowerShell (well-formedness)', () => {
  it('accepts balanced code with strings, here-strings, comments and escapes', () => {
    const script = [
      'param([string]$Name = "world")',
      '# a comment with { unbalanced ( brackets',
      '<# a block comment',
      '   with } more #>',
      'function Greet {',
      '  Write-Host "hello $($Name.ToUpper()) `" { ("',
      "  Write-Host 'it''s { fine'",
      '  $text = @"',
      'a here-string with } and ) and "quotes"',
      '"@',
      "  $lit = @'",
      "nothing $(here) is code {",
      "'@",
      '  Get-Item `',
      '    -Path C:\\',
      '}',
      'Greet',
    ].join('\r\n');
    expect(checkPowerShell(script)).toEqual([]);
  });

  it('reports an unclosed brace at the line it opened', () => {
    expect(checkPowerShell('Write-Host a\nif ($x) {\n  Write-Host b\n')).toEqual([{ severity: 'error', line: 2, message: '"{" is never closed' }]);
  });

  it('reports a closer that matches nothing or the wrong opener', () => {
    expect(checkPowerShell('a\n}\n')).toEqual([{ severity: 'error', line: 2, message: '"}" closes nothing' }]);
    expect(checkPowerShell('foo (\n  bar }\n)')[0]).toEqual({ severity: 'error', line: 2, message: '"}" does not match "(" opened on line 1' });
  });

  it('reports unclosed strings, here-strings and block comments', () => {
    expect(checkPowerShell('Write-Host "abc\n')).toEqual([{ severity: 'error', line: 1, message: 'string " is never closed' }]);
    expect(checkPowerShell("x\nWrite-Host 'abc\n")).toEqual([{ severity: 'error', line: 2, message: "string ' is never closed" }]);
    expect(checkPowerShell('$a = @"\ntext\n  "@\n')).toEqual([expect.objectContaining({ line: 1, message: expect.stringContaining('here-string') })]);
    expect(checkPowerShell('<# open\n')).toEqual([expect.objectContaining({ line: 1, message: expect.stringContaining('block comment') })]);
  });

  it('counts lines inside strings and subexpressions', () => {
    expect(checkPowerShell('"a\nb $(\n1\n)"\n{\n')).toEqual([{ severity: 'error', line: 5, message: '"{" is never closed' }]);
  });
});
