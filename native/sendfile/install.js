'use strict';
// Builds the addon with npm's own node-gyp. A failed build must not fail the
// install: Bootwright then streams HTTP boot files through Node instead.
// npm shows a dependency's install output only when the script fails, so a
// failure is also written to build-failed.txt, which index.js reports.
const { spawnSync } = require('node:child_process');
const { existsSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const FAILED_NOTE = path.join(__dirname, 'build-failed.txt');
const FALLBACK = '@bootwright/sendfile: native build failed; HTTP boot will stream files instead of using sendfile(2) (needs python3, make and a C compiler).';

rmSync(FAILED_NOTE, { force: true });
if (process.platform !== 'linux') {
  console.warn(`@bootwright/sendfile: sendfile(2) is used on Linux only; HTTP boot will stream files on ${process.platform}.`);
  process.exit(0);
}
const args = ['rebuild'];
// Without a configured nodedir, node-gyp downloads headers; a Node installed with its headers
// (<prefix>/include/node, as Debian's) builds offline against those instead.
const prefix = path.resolve(path.dirname(process.execPath), '..');
if (!process.env.npm_config_nodedir && existsSync(path.join(prefix, 'include', 'node', 'common.gypi'))) args.push(`--nodedir=${prefix}`);
// npm tells install scripts where its bundled node-gyp is; outside npm, node-gyp on PATH.
const gyp = process.env.npm_config_node_gyp;
const result = gyp
  ? spawnSync(process.execPath, [gyp, ...args], { cwd: __dirname, encoding: 'utf8' })
  : spawnSync('node-gyp', args, { cwd: __dirname, encoding: 'utf8' });
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
if (result.status !== 0) {
  const output = `${result.error ? `${result.error.message}\n` : ''}${result.stdout ?? ''}${result.stderr ?? ''}`;
  writeFileSync(FAILED_NOTE, `${FALLBACK}\n\nLast lines of the build:\n${output.split('\n').slice(-40).join('\n')}\n`);
  console.warn(FALLBACK);
}
process.exit(0);
