#!/usr/bin/env node
// Runs the whole vitest suite and ends with the plain summary line CI reads:
// "N passed, N failed, N skipped". The exit code is vitest's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const report = path.resolve('test-output', 'vitest-report.json');
mkdirSync(path.dirname(report), { recursive: true });
rmSync(report, { force: true });
const vitest = path.resolve('node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
try {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
  console.log(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log('\n0 passed, 1 failed (vitest wrote no report)');
}
process.exit(result.status ?? 1);
