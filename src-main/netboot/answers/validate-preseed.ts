import { error, logicalLines, warning, type ValidationIssue } from './validation-issue.js';

/**
 * Debconf owners seen in installer preseeds. An owner is the package that
 * asks the question; an unknown one is only a warning (any package may be
 * preseeded), a malformed one an error.
 */
const KNOWN_OWNERS = new Set([
  'd-i',
  'tasksel',
  'popularity-contest',
  'keyboard-configuration',
  'console-setup',
  'grub-pc',
  'grub-installer',
  'openssh-server',
  'man-db',
  'debconf',
  'locales',
  'tzdata',
  'iptables-persistent',
  'unattended-upgrades',
  'cloud-init',
  'postfix',
  'base-config',
  'apt-setup',
]);
/** debconf question types (debconf-devel(7)). */
const KNOWN_TYPES = new Set(['string', 'boolean', 'select', 'multiselect', 'password', 'note', 'text', 'title', 'error', 'seen']);
const OWNER_PATTERN = /^[a-z0-9][a-z0-9.+-]*$/;

/** Questions an unattended install cannot do without: without them, the installer stops and asks. */
const UNATTENDED_QUESTIONS: readonly [string, string][] = [
  ['partman/confirm', 'the installer asks before writing the partition table'],
  ['partman/confirm_nooverwrite', 'the installer asks before overwriting partitions'],
  ['partman-partitioning/confirm_write_new_label', 'the installer asks before writing a new partition label'],
  ['finish-install/reboot_in_progress', 'the installer waits for a key press at the end'],
];

/**
 * Checks the debconf line grammar of a rendered preseed:
 * `owner question type value`, comments, backslash continuations; booleans
 * true/false; and warns when a question an unattended install needs is absent.
 */
export function validatePreseed(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Map<string, number>();
  for (const { line, text: raw } of logicalLines(text)) {
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) continue;
    const match = /^(\S+)\s+(\S+)\s+(\S+)(?:\s+(.*))?$/.exec(content);
    if (!match) {
      issues.push(error(line, 'expected "owner question type value" (e.g. "d-i netcfg/get_hostname string myhost")'));
      continue;
    }
    const owner = match[1] ?? '';
    const question = match[2] ?? '';
    const type = match[3] ?? '';
    const value = (match[4] ?? '').trim();
    if (!OWNER_PATTERN.test(owner)) issues.push(error(line, `"${owner}" is not a package name (the owner: d-i, tasksel, popularity-contest…)`));
    else if (!KNOWN_OWNERS.has(owner)) issues.push(warning(line, `unusual owner "${owner}" (d-i, tasksel, popularity-contest…): check the spelling`));
    if (!question.includes('/')) issues.push(error(line, `"${question}" is not a debconf question name (package/question)`));
    if (!KNOWN_TYPES.has(type)) {
      issues.push(error(line, `unknown type "${type}" (string, boolean, select, multiselect, password, note…)`));
      continue;
    }
    if (type === 'boolean' && value !== 'true' && value !== 'false') issues.push(error(line, `boolean ${question} must be true or false, not "${value}"`));
    const key = `${owner} ${question}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) issues.push(warning(line, `${question} is set again (first on line ${earlier}); the last one wins`));
    else seen.set(key, line);
  }
  const questions = new Set([...seen.keys()].map((key) => key.split(' ')[1]));
  if (questions.has('partman-auto/method')) {
    for (const [question, why] of UNATTENDED_QUESTIONS.slice(0, 3)) {
      if (!questions.has(question)) issues.push(warning(null, `${question} is not preseeded: ${why}`));
    }
  }
  const [finishQuestion, finishWhy] = UNATTENDED_QUESTIONS[3] ?? ['', ''];
  if (!questions.has(finishQuestion)) issues.push(warning(null, `${finishQuestion} is not preseeded: ${finishWhy}`));
  return issues;
}
