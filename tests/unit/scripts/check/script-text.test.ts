import { describe, expect, it } from 'vitest';
import { textIssues } from '../../../../src-main/scripts/check/script-text.js';

describe('textIssues', () => {
  it('accepts plain UTF-8 text with tabs', () => {
    expect(textIssues('sh', '#!/bin/sh\n\techo "grüße ✓"\n')).toEqual([]);
  });

  it('refuses NUL and other control characters with their line, at most five listed', () => {
    expect(textIssues('sh', 'echo a\necho \u0000b\n')).toEqual([{ severity: 'error', line: 2, message: 'contains the control character NUL (only tab, CR and LF are allowed)' }]);
    expect(textIssues('batch', 'echo \u001b[1m\r\n')[0]).toMatchObject({ severity: 'error', line: 1, message: expect.stringContaining('U+001B') });
    const many = textIssues('powershell', '\u0001\n'.repeat(8));
    expect(many).toHaveLength(6);
    expect(many[5]).toMatchObject({ line: null, message: '3 more with control characters' });
  });

  it('refuses a lone surrogate and U+FFFD (text that was not UTF-8)', () => {
    expect(textIssues('sh', 'echo \ud800\n')[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('surrogate') });
    expect(textIssues('sh', 'a\necho \ufffd\n')[0]).toMatchObject({ severity: 'error', line: 2, message: expect.stringContaining('U+FFFD') });
    // A valid pair (an emoji) is fine.
    expect(textIssues('sh', 'echo 😀\n')).toEqual([]);
  });

  it('accepts a byte order mark for PowerShell, warns for batch, refuses it for shells and cloud-init', () => {
    expect(textIssues('powershell', '\ufeffWrite-Host hi\r\n')).toEqual([]);
    expect(textIssues('batch', '\ufeff@echo off\r\n')).toEqual([expect.objectContaining({ severity: 'warning', line: 1 })]);
    expect(textIssues('sh', '\ufeff#!/bin/sh\n')).toEqual([expect.objectContaining({ severity: 'error', line: 1 })]);
    expect(textIssues('cloud-init', '\ufeff#cloud-config\n')).toEqual([expect.objectContaining({ severity: 'error', line: 1 })]);
  });

  it('refuses CRLF for shells, allows it for Windows kinds, refuses a lone CR', () => {
    expect(textIssues('bash', 'echo a\r\necho b\r\n')).toEqual([expect.objectContaining({ severity: 'error', line: 1, message: expect.stringContaining('CRLF') })]);
    expect(textIssues('batch', 'echo a\r\necho b\r\n')).toEqual([]);
    expect(textIssues('powershell', 'a\rb\n')).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringContaining('carriage return') })]);
  });
});
