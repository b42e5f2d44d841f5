'use strict';
// The compiled addon. Throws when it was not built (no C compiler at install
// time, or not Linux): the caller catches that and streams instead.
const { existsSync } = require('node:fs');
const path = require('node:path');

try {
  module.exports = require('./build/Release/sendfile.node');
} catch (err) {
  const note = path.join(__dirname, 'build-failed.txt');
  if (existsSync(note)) throw new Error(`the native build failed at install time, see ${note}`, { cause: err });
  throw err;
}
