import { describe, expect, it } from 'vitest';
import { validateAutounattend, validateAutoyast } from '../../../../src-main/netboot/answers/validate-xml.js';

describe('validateAutoyast', () => {
  it('gives the line and column of an XML error', () => {
    const issues = validateAutoyast('<?xml version="1.0"?>\n<profile>\n  <general>\n  </genral>\n</profile>\n');
    expect(issues).toEqual([expect.objectContaining({ line: 4, severity: 'error', message: expect.stringContaining('not well-formed') })]);
    expect(issues[0]?.column).toBeGreaterThan(0);
  });

  it('requires the profile root and warns about missing sections', () => {
    expect(validateAutoyast('<unattend/>')).toContainEqual(expect.objectContaining({ severity: 'error', message: expect.stringContaining('<profile>') }));
    const issues = validateAutoyast('<?xml version="1.0"?>\n<!DOCTYPE profile>\n<profile xmlns="http://www.suse.com/1.0/yast2ns">\n  <software/>\n</profile>\n');
    expect(issues.map((issue) => issue.message)).toEqual([expect.stringContaining('confirm'), expect.stringContaining('<partitioning>'), expect.stringContaining('<users>')]);
    expect(issues.every((issue) => issue.severity === 'warning' && issue.line === 3)).toBe(true);
  });
});

describe('validateAutounattend', () => {
  it('requires the windowsPE and oobeSystem passes', () => {
    const issues = validateAutounattend('<unattend xmlns="urn:schemas-microsoft-com:unattend">\n  <settings pass="specialize"/>\n</unattend>\n');
    expect(issues).toEqual([
      expect.objectContaining({ line: 1, severity: 'error', message: expect.stringContaining('windowsPE') }),
      expect.objectContaining({ line: 1, severity: 'error', message: expect.stringContaining('oobeSystem') }),
    ]);
  });

  it('wants the Setup component in windowsPE', () => {
    const text = '<unattend>\n<settings pass="windowsPE"><component name="Other"/></settings>\n<settings pass="specialize"/><settings pass="oobeSystem"/>\n</unattend>';
    expect(validateAutounattend(text)).toEqual([expect.objectContaining({ line: 2, severity: 'error', message: expect.stringContaining('Microsoft-Windows-Setup') })]);
  });
});
