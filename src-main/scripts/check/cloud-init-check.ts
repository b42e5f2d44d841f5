import { isMap, parseDocument, type YAMLError } from 'yaml';
import type { ScriptIssue } from '../scripts-contract.js';

/*
 * cloud-init user data (docs/scripts.md, "Checks"): a `#cloud-config` part
 * is YAML whose top level is a mapping (module names → settings); a part
 * starting with `#!` is a script cloud-init runs as is. Other part types
 * (#include, #cloud-boothook, MIME multipart) are not accepted here.
 */

export const CLOUD_CONFIG_HEADER = '#cloud-config';

export type CloudInitPart = { type: 'cloud-config'; issues: ScriptIssue[] } | { type: 'script'; interpreter: string; issues: ScriptIssue[] } | { type: 'unknown'; issues: ScriptIssue[] };

/** The first line without its line ending. */
function firstLine(content: string): string {
  const end = content.search(/\r?\n/);
  return end === -1 ? content : content.slice(0, end);
}

function yamlIssue(error: YAMLError, severity: ScriptIssue['severity']): ScriptIssue {
  // The pretty message repeats the position and quotes the source; the first line without the position is the reason.
  const reason = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
  return { severity, line: error.linePos?.[0].line ?? null, message: reason };
}

/** What kind of part `content` is, and the issues of a #cloud-config part's YAML. */
export function checkCloudInit(content: string): CloudInitPart {
  const head = firstLine(content);
  if (head.startsWith('#!')) {
    return { type: 'script', interpreter: head.slice(2).trim(), issues: [] };
  }
  if (head.trimEnd() !== CLOUD_CONFIG_HEADER) {
    return {
      type: 'unknown',
      issues: [{ severity: 'error', line: 1, message: `must start with the line "${CLOUD_CONFIG_HEADER}" (or "#!" for a script part)` }],
    };
  }
  const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: true });
  const issues: ScriptIssue[] = [...doc.errors.map((error) => yamlIssue(error, 'error')), ...doc.warnings.map((warning) => yamlIssue(warning, 'warning'))];
  if (doc.errors.length === 0) {
    if (doc.contents === null) issues.push({ severity: 'warning', line: null, message: 'the cloud-config is empty: it configures nothing' });
    else if (!isMap(doc.contents)) issues.push({ severity: 'error', line: null, message: 'the cloud-config must be a YAML mapping (module: settings) at the top level' });
  }
  return { type: 'cloud-config', issues };
}

/** The shell checker a `#!` line names (sh and dash → sh, bash → bash), or null for any other interpreter. */
export function shellOfInterpreter(interpreter: string): 'sh' | 'bash' | null {
  const words = interpreter.split(/\s+/).filter((word) => word !== '');
  // `#!/usr/bin/env bash` names the interpreter in its second word.
  const program = words[0]?.endsWith('/env') ? words[1] : words[0];
  const name = program?.split('/').at(-1);
  if (name === 'sh' || name === 'dash') return 'sh';
  if (name === 'bash') return 'bash';
  return null;
}
