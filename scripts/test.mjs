#!/usr/bin/env node
// Runs the whole vitest suite and ends with the plain summary line CI reads:
// "N passed, N failed, N skipped". The exit code is non-zero when a test failed.
//
// A full run is two vitest processes at once, one worker each, then a third:
//  - lane 2: the QEMU machines (a TCG guest keeps one core busy while the test
//    waits for it) and the DHCP, power, diagnostics and OS-image integration
//    folders. Each file uses only its own namespaces, data folders and
//    ephemeral loopback ports, so it cannot meet the other lane's files.
//  - lane 1: everything else but the browser tests, at the same time.
//  - last, alone: the browser tests (Chromium renders every page against 10 s
//    waits; beside a QEMU guest a page once took longer than that).
// One after the other the whole suite took 29 of CI's 30 minutes on 2 cores.
// With arguments (`npm test -- tests/unit/dns`) it is one vitest run with
// those arguments.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const OUTPUT = path.resolve('test-output');
const VITEST = path.resolve('node_modules', 'vitest', 'vitest.mjs');
const BROWSER_TESTS = 'tests/e2e/browser';
/**
 * Lane 2: the QEMU machines, and folders whose files use only namespaces they
 * create, temporary data folders and ephemeral loopback ports (so they cannot
 * meet a lane-1 file), sized so both lanes end at about the same time.
 */
const LANE_2 = ['tests/e2e/qemu', 'tests/integration/dhcp', 'tests/integration/power', 'tests/integration/diagnostics', 'tests/integration/os-images'];
mkdirSync(OUTPUT, { recursive: true });

/** One vitest run writing its JSON report to `report`; `log`: its output goes to that file instead of this terminal. */
function vitest(args, report, log) {
  rmSync(report, { force: true });
  const argv = [VITEST, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args];
  const child = spawn(process.execPath, argv, { stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (log) {
    const file = createWriteStream(log);
    child.stdout.pipe(file);
    child.stderr.pipe(file);
  }
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, report })));
}

function counts(report) {
  try {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    return { passed: summary.numPassedTests ?? 0, failed: summary.numFailedTests ?? 0, skipped: (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0), ok: true };
  } catch {
    return { passed: 0, failed: 1, skipped: 0, ok: false };
  }
}

const extra = process.argv.slice(2);
const results = [];
if (extra.length > 0) {
  results.push(await vitest(extra, path.join(OUTPUT, 'vitest-report.json'), null));
} else {
  const lane1Excludes = [...LANE_2, BROWSER_TESTS].flatMap((folder) => ['--exclude', `${folder}/**`]);
  results.push(
    ...(await Promise.all([
      vitest(lane1Excludes, path.join(OUTPUT, 'vitest-report.json'), null),
      vitest(LANE_2.map((folder) => `${folder}/`), path.join(OUTPUT, 'vitest-report-lane2.json'), path.join(OUTPUT, 'vitest-lane2.log')),
    ])),
  );
  // Lane 2's own output, after lane 1's (they ran at the same time).
  console.log(`\n--- lane 2: ${LANE_2.join(', ')} (run beside the rest) ---\n`);
  process.stdout.write(readFileSync(path.join(OUTPUT, 'vitest-lane2.log'), 'utf8'));
  console.log(`\n--- ${BROWSER_TESTS} (run last, alone) ---\n`);
  results.push(await vitest([BROWSER_TESTS], path.join(OUTPUT, 'vitest-report-browser.json'), null));
}
const total = { passed: 0, failed: 0, skipped: 0 };
for (const result of results) {
  const part = counts(result.report);
  if (!part.ok) console.log(`\nvitest wrote no report to ${path.relative(process.cwd(), result.report)}`);
  total.passed += part.passed;
  total.failed += part.failed;
  total.skipped += part.skipped;
}
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(results.some((result) => result.code !== 0) || total.failed > 0 ? 1 : 0);
