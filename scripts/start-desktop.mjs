#!/usr/bin/env node
// `npm start`: runs the desktop app. The Electron binary is downloaded on first
// use (package.json's allowScripts keeps `npm ci` from downloading it, so
// installs and tests work offline); without internet, use `npm run serve`.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    return require('electron');
  } catch {
    return null;
  }
}

let binary = electronBinary();
if (!binary) {
  console.log('Electron binary not present yet: downloading it once (needs internet)...');
  const install = spawnSync(process.execPath, [path.join(path.dirname(require.resolve('electron/package.json')), 'install.js')], {
    stdio: 'inherit',
  });
  binary = install.status === 0 ? electronBinary() : null;
}
if (!binary) {
  console.error(
    'bootwright: the Electron binary could not be downloaded (no internet?). The same servers, API and web UI run headless: npm run serve (then open http://localhost:8080).',
  );
  process.exit(1);
}
const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
