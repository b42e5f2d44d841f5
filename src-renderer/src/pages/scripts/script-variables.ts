import { ScriptVariablesSchema, type ScriptVariables } from '@contracts/scripts';
import { Value } from 'typebox/value';
import type { VariableRow } from '../netboot/variable-rows.js';

/** Names the renderer fills itself (docs/scripts.md, "Variables"); the server refuses them too. */
const RESERVED = new Set(['host', 'server', 'baseline', 'script']);

/**
 * The rows as `variables`, or the problem of each bad row by index: the
 * contract's ScriptVariablesSchema decides what a valid name and value are.
 */
export function rowsToScriptVariables(rows: readonly VariableRow[]): { variables: ScriptVariables; problems: Record<number, string> } {
  const variables: ScriptVariables = {};
  const problems: Record<number, string> = {};
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (name === '' && row.value === '') return;
    if (Object.hasOwn(variables, name)) problems[index] = `"${name}" is set twice`;
    else if (RESERVED.has(name)) problems[index] = `"${name}" is reserved (the renderer fills ${name}.*)`;
    else if (!Value.Check(ScriptVariablesSchema, { [name]: row.value })) problems[index] = 'Lowercase letters, digits and _ (not first), at most 64; values up to 4096 characters';
    else variables[name] = row.value;
  });
  if (Object.keys(problems).length === 0 && !Value.Check(ScriptVariablesSchema, variables)) problems[rows.length] = 'At most 32 variables';
  return { variables, problems };
}
