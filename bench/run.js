#!/usr/bin/env node
// `npm run bench`: every `bench:*` script of package.json, one after another (each needs its reference
// server and a quiet machine, so they never run at once), then a summary. Before the first starts, every
// file the scripts name is checked, so a missing one fails at once with its name instead of minutes in.
//   npm run bench              run them all
//   npm run bench -- --list    list them and the files they run, run nothing
//   npm run bench -- dns tftp  run only these (names without the `bench:` prefix)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts;
const args = process.argv.slice(2);
const listOnly = args.includes('--list');
const wanted = args.filter((arg) => !arg.startsWith('--'));

// An alias (`bench:netboot-boot` → `npm run bench:boot -- …`) runs when named, not again in a run of them all.
const isAlias = (command) => /^npm run bench:/.test(command);
const all = Object.keys(scripts)
  .filter((name) => name.startsWith('bench:'))
  .map((name) => ({ name, short: name.slice('bench:'.length), alias: isAlias(scripts[name]), files: [...scripts[name].matchAll(/(?:^|\s)(bench\/\S+\.[jt]s)\b/g)].map((m) => m[1]) }));
const unknown = wanted.filter((short) => !all.some((bench) => bench.short === short));
if (unknown.length > 0) {
  console.error(`no such benchmark: ${unknown.join(', ')} (there are: ${all.map((bench) => bench.short).join(', ')})`);
  process.exit(2);
}
const chosen = wanted.length === 0 ? all.filter((bench) => !bench.alias) : all.filter((bench) => wanted.includes(bench.short));
const missing = chosen.flatMap((bench) => bench.files.filter((file) => !existsSync(`${root}/${file}`)).map((file) => `${bench.name}: ${file}`));

if (listOnly) {
  console.log('Benchmarks (docs/performance.md says what each compares and what it needs):\n');
  for (const bench of chosen) console.log(`  npm run ${bench.name}    ${bench.files.join(', ')}`);
  if (missing.length > 0) console.log(`\nMissing files:\n  ${missing.join('\n  ')}`);
  process.exit(missing.length > 0 ? 1 : 0);
}
if (missing.length > 0) {
  console.error(`Missing benchmark files (nothing was run):\n  ${missing.join('\n  ')}`);
  process.exit(1);
}

const results = [];
for (const bench of chosen) {
  console.log(`\n=== npm run ${bench.name} (${results.length + 1}/${chosen.length}) ===`);
  const started = Date.now();
  const run = spawnSync('npm', ['run', '--silent', bench.name], { cwd: root, stdio: 'inherit' });
  results.push({ name: bench.name, code: run.status ?? 1, seconds: Math.round((Date.now() - started) / 1000) });
}
console.log('\nBenchmark runs:');
for (const result of results) console.log(`  ${result.code === 0 ? 'ok    ' : `failed (exit ${result.code})`}  ${result.name}  ${result.seconds} s`);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
