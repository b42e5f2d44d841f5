import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';
import { error, warning, type ValidationIssue } from './validation-issue.js';

/** Top-level keys of Subiquity's autoinstall schema; another one is a typo Subiquity rejects. */
const AUTOINSTALL_KEYS = new Set([
  'version', 'interactive-sections', 'early-commands', 'locale', 'refresh-installer', 'keyboard', 'source', 'network', 'proxy',
  'apt', 'storage', 'identity', 'active-directory', 'ubuntu-pro', 'ubuntu-advantage', 'ssh', 'codecs', 'drivers', 'oem', 'snaps',
  'debconf-selections', 'packages', 'kernel', 'kernel-crash-dumps', 'timezone', 'updates', 'shutdown', 'late-commands',
  'error-commands', 'reporting', 'user-data', 'zdevs',
]);

/**
 * Checks rendered autoinstall user-data: `#cloud-config` on the first line
 * (cloud-init ignores user-data without it), well-formed YAML (positions
 * from the yaml package), `autoinstall.version: 1`, and `identity` or
 * `user-data` (Subiquity stops to ask otherwise).
 */
export function validateAutoinstall(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.trimEnd() !== '#cloud-config') issues.push(error(1, `the first line must be "#cloud-config" (cloud-init ignores user-data without it), not "${firstLine.slice(0, 40)}"`));
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  for (const problem of doc.errors) {
    const at = problem.linePos?.[0];
    issues.push(error(at?.line ?? null, problem.message.split('\n')[0] ?? problem.message, at?.col ?? null));
  }
  for (const problem of doc.warnings) {
    const at = problem.linePos?.[0];
    issues.push(warning(at?.line ?? null, problem.message.split('\n')[0] ?? problem.message, at?.col ?? null));
  }
  if (doc.errors.length > 0) return issues;
  const lineOf = (node: Node | null | undefined): number | null => (node?.range ? counter.linePos(node.range[0]).line : null);
  const root = doc.contents;
  if (!isMap(root)) return [...issues, error(lineOf(root), 'the user-data must be a mapping with an "autoinstall" key')];
  const autoinstall = root.get('autoinstall', true);
  if (!isMap(autoinstall)) {
    return [...issues, error(autoinstall ? lineOf(autoinstall as Node) : null, autoinstall ? '"autoinstall" must be a mapping' : 'no "autoinstall:" key: Subiquity would run the interactive installer')];
  }
  const version = autoinstall.get('version', true);
  if (!isScalar(version) || version.value !== 1) issues.push(error(lineOf(version as Node | undefined) ?? lineOf(autoinstall), 'autoinstall.version must be 1'));
  for (const pair of autoinstall.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : null;
    if (key !== null && !AUTOINSTALL_KEYS.has(key)) issues.push(error(lineOf(pair.key as Node), `unknown autoinstall key "${key}"`));
  }
  if (!autoinstall.has('identity') && !autoinstall.has('user-data')) {
    issues.push(error(lineOf(autoinstall), 'autoinstall needs "identity" (or "user-data" creating a user): without it Subiquity stops to ask'));
  }
  if (!autoinstall.has('storage')) issues.push(warning(lineOf(autoinstall), 'no "storage" section: Subiquity uses its default layout on the largest disk'));
  return issues;
}
