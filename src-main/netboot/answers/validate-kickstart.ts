import { error, logicalLines, warning, type ValidationIssue } from './validation-issue.js';

/** Kickstart commands of current Anaconda (pykickstart, RHEL 8–9 and Fedora), including deprecated ones still accepted. */
const KNOWN_COMMANDS = new Set([
  'auth', 'authconfig', 'authselect', 'autopart', 'autostep', 'bootc', 'bootloader', 'btrfs', 'cdrom', 'clearpart', 'cmdline',
  'device', 'deviceprobe', 'dmraid', 'driverdisk', 'eula', 'fcoe', 'firewall', 'firstboot', 'graphical', 'group', 'halt',
  'harddrive', 'hmc', 'ignoredisk', 'install', 'iscsi', 'iscsiname', 'keyboard', 'lang', 'liveimg', 'logging', 'logvol',
  'mediacheck', 'method', 'module', 'mount', 'multipath', 'network', 'nfs', 'nvdimm', 'ostreecontainer', 'ostreesetup',
  'part', 'partition', 'poweroff', 'raid', 'realm', 'reboot', 'repo', 'reqpart', 'rescue', 'rhsm', 'rootpw', 'selinux',
  'services', 'shutdown', 'skipx', 'snapshot', 'sshkey', 'sshpw', 'syspurpose', 'text', 'timesource', 'timezone', 'updates',
  'url', 'user', 'vnc', 'volgroup', 'xconfig', 'zerombr', 'zfcp', 'zipl', '%include', '%ksappend',
]);
/** Sections: each opens with its header and closes with %end. */
const SECTIONS = new Set(['%pre', '%pre-install', '%post', '%packages', '%addon', '%onerror', '%traceback', '%anaconda']);

/** What an unattended install needs; without it Anaconda stops and asks (or has nothing to install). */
const REQUIRED: readonly { any: readonly string[]; why: string }[] = [
  { any: ['text', 'cmdline', 'graphical'], why: 'no display mode (text): Anaconda may wait in its graphical interface' },
  { any: ['url', 'cdrom', 'nfs', 'harddrive', 'liveimg', 'ostreesetup', 'ostreecontainer', 'bootc'], why: 'no installation source (url --url=…)' },
  { any: ['lang'], why: 'no lang: the installer asks for the language' },
  { any: ['timezone'], why: 'no timezone: the installer asks for it' },
  { any: ['rootpw', 'user'], why: 'no rootpw or user: the installer asks for a password' },
  { any: ['autopart', 'part', 'partition', 'logvol', 'raid', 'btrfs', 'mount'], why: 'no partitioning (autopart or part): the installer asks' },
  { any: ['reboot', 'poweroff', 'shutdown', 'halt'], why: 'no reboot: the installer waits at the end' },
  { any: ['%packages'], why: 'no %packages section: the default package set is installed' },
];

/**
 * Checks a rendered kickstart: known commands, sections opened by
 * `%pre`/`%post`/`%packages`/`%addon`/`%onerror` and closed by `%end`, and
 * what an unattended install needs (warnings).
 */
export function validateKickstart(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const used = new Set<string>();
  let open: { name: string; line: number } | null = null;
  for (const { line, text: raw } of logicalLines(text)) {
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) continue;
    const word = (content.split(/\s+/)[0] ?? '').toLowerCase();
    if (word === '%end') {
      if (!open) issues.push(error(line, '%end without an open section'));
      open = null;
      continue;
    }
    if (SECTIONS.has(word)) {
      if (open) issues.push(error(open.line, `${open.name} is not closed by %end before ${word} on line ${line}`));
      open = { name: word, line };
      used.add(word);
      continue;
    }
    if (open) continue; // section bodies are scripts or package lists
    if (word.startsWith('%') && !KNOWN_COMMANDS.has(word)) {
      issues.push(error(line, `unknown section "${word}" (%pre, %post, %packages, %addon, %onerror)`));
      continue;
    }
    if (!KNOWN_COMMANDS.has(word)) {
      issues.push(error(line, `unknown kickstart command "${word}"`));
      continue;
    }
    used.add(word);
    if (word === 'url' && !/--(url|mirrorlist|metalink)[= ]\S/.test(content)) issues.push(error(line, 'url needs --url=<installation tree> (or --mirrorlist/--metalink)'));
    if (word === 'rootpw' && !/--(iscrypted|plaintext|lock|allow-ssh)\b/.test(content) && content.split(/\s+/).length < 2) {
      issues.push(error(line, 'rootpw needs a password (--iscrypted <hash>) or --lock'));
    }
  }
  if (open) issues.push(error(open.line, `${open.name} is not closed by %end`));
  for (const need of REQUIRED) {
    if (!need.any.some((command) => used.has(command))) issues.push(warning(null, need.why));
  }
  return issues;
}
