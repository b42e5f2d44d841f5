import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { error, warning, type ValidationIssue } from './validation-issue.js';

type XmlNode = Record<string, unknown>;

/** Well-formedness (fast-xml-parser's validator gives line and column), then the parsed tree; null when not well-formed. */
function parseXml(text: string, issues: ValidationIssue[]): XmlNode | null {
  const result = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (result !== true) {
    issues.push(error(result.err.line, `XML is not well-formed: ${result.err.msg}`, result.err.col));
    return null;
  }
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, isArray: (name) => ['settings', 'component'].includes(name) });
  return parser.parse(text) as XmlNode;
}

/** The line where `<name` first opens, for issues about an element. */
function lineOfElement(text: string, name: string): number | null {
  const at = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}[\\s>/]`).exec(text);
  return at ? text.slice(0, at.index).split('\n').length : null;
}

function child(node: unknown, name: string): unknown {
  return typeof node === 'object' && node !== null ? (node as XmlNode)[name] : undefined;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** AutoYaST: a well-formed `<profile>` with the sections an unattended install needs. */
export function validateAutoyast(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const doc = parseXml(text, issues);
  if (!doc) return issues;
  const profile = doc.profile;
  if (profile === undefined) return [...issues, error(null, 'the root element must be <profile> (xmlns="http://www.suse.com/1.0/yast2ns")')];
  const line = lineOfElement(text, 'profile');
  const confirm = child(child(child(profile, 'general'), 'mode'), 'confirm');
  const confirmText = typeof confirm === 'object' && confirm !== null ? (confirm as XmlNode)['#text'] : confirm;
  if (String(confirmText) !== 'false') issues.push(warning(line, 'general/mode/confirm is not false: AutoYaST stops to ask for confirmation'));
  for (const [section, why] of [
    ['partitioning', 'AutoYaST proposes a layout itself'],
    ['users', 'no user or root password: the installed system has no login'],
    ['software', 'the default software selection is installed'],
  ] as const) {
    if (child(profile, section) === undefined) issues.push(warning(line, `no <${section}> section: ${why}`));
  }
  return issues;
}

/** The configuration passes Windows Setup must find in an unattended install. */
const REQUIRED_PASSES: readonly [string, 'error' | 'warning', string][] = [
  ['windowsPE', 'error', 'Setup asks for the language, disk and image'],
  ['specialize', 'warning', 'the computer gets a random name'],
  ['oobeSystem', 'error', 'the out-of-box experience asks for an account and settings'],
];

/** autounattend.xml: a well-formed `<unattend>` with windowsPE (disk and image) and oobeSystem passes. */
export function validateAutounattend(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const doc = parseXml(text, issues);
  if (!doc) return issues;
  const unattend = doc.unattend;
  if (unattend === undefined) return [...issues, error(null, 'the root element must be <unattend> (xmlns="urn:schemas-microsoft-com:unattend")')];
  const line = lineOfElement(text, 'unattend');
  const passes = new Map<string, unknown>();
  for (const settings of asArray(child(unattend, 'settings'))) {
    const pass = child(settings, '@pass');
    if (typeof pass === 'string') passes.set(pass, settings);
  }
  for (const [pass, severity, why] of REQUIRED_PASSES) {
    if (!passes.has(pass)) issues.push((severity === 'error' ? error : warning)(line, `no <settings pass="${pass}">: ${why}`));
  }
  const pe = passes.get('windowsPE');
  if (pe !== undefined) {
    const setup = asArray(child(pe, 'component')).find((component) => child(component, '@name') === 'Microsoft-Windows-Setup');
    const peLine = lineOfElement(text, 'settings');
    if (setup === undefined) issues.push(error(peLine, 'windowsPE has no Microsoft-Windows-Setup component: Setup asks for the disk and image'));
    else {
      if (child(setup, 'DiskConfiguration') === undefined) issues.push(warning(peLine, 'no DiskConfiguration: Setup asks where to install'));
      if (child(setup, 'ImageInstall') === undefined) issues.push(warning(peLine, 'no ImageInstall: Setup asks which disk and partition to install to'));
      if (child(child(setup, 'UserData'), 'AcceptEula') === undefined) issues.push(warning(peLine, 'UserData/AcceptEula is missing: Setup shows the license'));
    }
  }
  return issues;
}
