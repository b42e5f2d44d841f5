import { describe, expect, it } from 'vitest';
import { validatePreseed } from '../../../../src-main/netboot/answers/validate-preseed.js';

const END = 'd-i finish-install/reboot_in_progress note\n';

describe('validatePreseed', () => {
  it('accepts comments, blank lines, empty values and backslash continuations', () => {
    const text = '# comment\n\nd-i netcfg/wireless_wep string\nd-i preseed/late_command string \\\n  echo a ; \\\n  echo b\n' + END;
    expect(validatePreseed(text)).toEqual([]);
  });

  it('names the line of a bad type, a bad boolean and a line that is not a question', () => {
    const text = 'd-i netcfg/get_hostname string web\nd-i clock-setup/utc bool true\nd-i clock-setup/ntp boolean yes\nhostname web\n' + END;
    const issues = validatePreseed(text);
    expect(issues).toEqual([
      expect.objectContaining({ line: 2, severity: 'error', message: expect.stringContaining('unknown type "bool"') }),
      expect.objectContaining({ line: 3, severity: 'error', message: expect.stringContaining('true or false') }),
      expect.objectContaining({ line: 4, severity: 'error', message: expect.stringContaining('owner question type value') }),
    ]);
  });

  it('reports a continued line at the line it starts on, and warns about unknown owners and repeats', () => {
    const text = 'd-i a/b string \\\n  x\nd-i c/d boolean \\\n maybe\nfrobnicate x/y string z\nd-i a/b string again\n' + END;
    const issues = validatePreseed(text);
    expect(issues).toContainEqual(expect.objectContaining({ line: 3, severity: 'error' }));
    expect(issues).toContainEqual(expect.objectContaining({ line: 5, severity: 'warning', message: expect.stringContaining('frobnicate') }));
    expect(issues).toContainEqual(expect.objectContaining({ line: 6, severity: 'warning', message: expect.stringContaining('first on line 1') }));
  });

  it('warns when partitioning runs without its confirmations or the end waits for a key', () => {
    const issues = validatePreseed('d-i partman-auto/method string regular\n');
    expect(issues.map((issue) => issue.message)).toEqual([
      expect.stringContaining('partman/confirm is not preseeded'),
      expect.stringContaining('partman/confirm_nooverwrite'),
      expect.stringContaining('confirm_write_new_label'),
      expect.stringContaining('finish-install/reboot_in_progress'),
    ]);
    expect(issues.every((issue) => issue.severity === 'warning' && issue.line === null)).toBe(true);
  });
});
