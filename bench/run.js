#!/usr/bin/env node
// `npm run bench`: the benchmarks are separate runs (each needs its reference server and
// minutes of a quiet machine), so this lists them rather than running them all at once.
import { readFileSync } from 'node:fs';

const scripts = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts;
const benches = Object.keys(scripts).filter((name) => name.startsWith('bench:'));
console.log('Benchmarks (docs/performance.md says what each compares and what it needs):\n');
for (const name of benches) console.log(`  npm run ${name}`);
console.log('\nRun one at a time on an otherwise idle machine.');
