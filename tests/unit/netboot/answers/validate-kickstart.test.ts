import { describe, expect, it } from 'vitest';
import { validateKickstart } from '../../../../src-main/netboot/answers/validate-kickstart.js';

const COMPLETE = 'text\nurl --url=http://mirror/os/\nlang en_US.UTF-8\ntimezone UTC\nrootpw --lock\nautopart\nreboot\n%packages\n@core\n%end\n';

describe('validateKickstart', () => {
  it('accepts a complete kickstart with sections', () => {
    expect(validateKickstart(`${COMPLETE}%pre\necho hi\n%end\n%post --nochroot\nanything goes here\n%end\n`)).toEqual([]);
  });

  it('names an unknown command and a section left open', () => {
    const issues = validateKickstart(`${COMPLETE}instal --foo\n%post\necho\n%pre\necho\n%end\n`);
    expect(issues).toContainEqual(expect.objectContaining({ line: 11, severity: 'error', message: expect.stringContaining('unknown kickstart command "instal"') }));
    expect(issues).toContainEqual(expect.objectContaining({ line: 12, severity: 'error', message: expect.stringContaining('%post is not closed by %end before %pre on line 14') }));
  });

  it('reports %end without a section, an unclosed section at the end and url without --url', () => {
    const issues = validateKickstart('text\nurl\n%end\n%packages\n@core\n');
    expect(issues).toContainEqual(expect.objectContaining({ line: 2, message: expect.stringContaining('--url') }));
    expect(issues).toContainEqual(expect.objectContaining({ line: 3, message: '%end without an open section' }));
    expect(issues).toContainEqual(expect.objectContaining({ line: 4, message: '%packages is not closed by %end' }));
  });

  it('warns about what an unattended install lacks', () => {
    const messages = validateKickstart('text\n').map((issue) => issue.message);
    expect(messages).toEqual(expect.arrayContaining([expect.stringContaining('installation source'), expect.stringContaining('no reboot'), expect.stringContaining('no rootpw')]));
  });
});
