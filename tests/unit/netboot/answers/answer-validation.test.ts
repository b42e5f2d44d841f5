import { describe, expect, it } from 'vitest';
import { lineMap, mapIssues } from '../../../../src-main/netboot/answers/answer-validation.js';
import { scrubSecrets } from '../../../../src-main/netboot/answers/answer-secrets.js';
import { validatePreseed } from '../../../../src-main/netboot/answers/validate-preseed.js';

describe('rendered lines back to template lines', () => {
  it('follows tag-only lines, loops and output lines', () => {
    const source = ['# head', '{% assign x = 1 %}', 'd-i a/b string {{ v }}', '{% for p in list %}', 'd-i p/{{ p }} string x', '{% endfor %}', 'd-i c/d boolean true'].join('\n');
    const rendered = ['# head', '', 'd-i a/b string V', '', 'd-i p/one string x', '', 'd-i p/two string x', '', 'd-i c/d boolean true'].join('\n');
    const map = lineMap(source, rendered);
    expect(map.get(3)).toEqual({ line: 3, literal: false });
    expect(map.get(5)?.line).toBe(5);
    expect(map.get(7)?.line).toBe(5);
    expect(map.get(9)).toEqual({ line: 7, literal: true });
  });

  it('maps a preseed error to its template line, output-only lines included', () => {
    const source = 'd-i a/b string {{ v }}\n{{ block }}\nd-i c/d boolean {{ flag }}\nd-i finish-install/reboot_in_progress note\n';
    const rendered = 'd-i a/b string x\nfoo\nd-i c/d boolean maybe\nd-i finish-install/reboot_in_progress note\n';
    const issues = mapIssues(validatePreseed(rendered), source, rendered);
    expect(issues).toEqual([
      expect.objectContaining({ line: 2, column: null, message: expect.stringContaining('owner question type value') }),
      expect.objectContaining({ line: 3, message: expect.stringContaining('true or false') }),
    ]);
  });

  it('says "in the rendered output, line N" when no template line produced the line', () => {
    // A value with a newline breaks its line: the second half matches no template line.
    const source = 'd-i a/b string {{ v }}\nd-i finish-install/reboot_in_progress note\n';
    const rendered = 'd-i a/b string x\nbroken\nd-i finish-install/reboot_in_progress note\n';
    expect(mapIssues(validatePreseed(rendered), source, rendered)).toEqual([
      expect.objectContaining({ line: null, severity: 'error', message: expect.stringMatching(/^in the rendered output, line 2: expected "owner/) }),
    ]);
  });
});

describe('scrubSecrets', () => {
  it('masks every secret value in a message', () => {
    expect(scrubSecrets('line 1: bad value "hunter22" near hunter22', { root_password: 'hunter22' })).toBe('line 1: bad value "********" near ********');
  });
});
