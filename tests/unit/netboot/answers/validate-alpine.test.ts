import { describe, expect, it } from 'vitest';
import { validateAlpine } from '../../../../src-main/netboot/answers/validate-alpine.js';

const KEYS = 'KEYMAPOPTS="us us"\nHOSTNAMEOPTS=a\nTIMEZONEOPTS=UTC\nAPKREPOSOPTS="-1"\nDISKOPTS="-m sys /dev/sda"\n';

describe('validateAlpine', () => {
  it('accepts KEY=value lines and a quoted value over several lines', () => {
    expect(validateAlpine(`# c\n${KEYS}INTERFACESOPTS="auto lo\niface lo inet loopback\n"\n`)).toEqual([]);
  });

  it('names a line that is not KEY=value, an unquoted value with spaces and an unknown key', () => {
    const issues = validateAlpine(`${KEYS}INTERFACESOPTS=x\nsetup-alpine -f x\nDNSOPTS=-d example.com\nFOOOPTS=1\n`);
    expect(issues).toEqual([
      expect.objectContaining({ line: 7, severity: 'error', message: expect.stringContaining('KEY=value') }),
      expect.objectContaining({ line: 8, severity: 'error', message: expect.stringContaining('must be quoted') }),
      expect.objectContaining({ line: 9, severity: 'warning', message: expect.stringContaining('unknown key FOOOPTS') }),
    ]);
  });

  it('reports a quote never closed at the line it opens', () => {
    expect(validateAlpine(`${KEYS}INTERFACESOPTS="auto lo\niface lo\n`)).toContainEqual(expect.objectContaining({ line: 6, message: expect.stringContaining('never closed') }));
  });
});
