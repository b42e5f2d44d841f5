'use strict';
// Receiving upload bodies into files (hashed, written with O_DIRECT), built beside sendfile by
// the same install script. Throws when it was not built: the caller catches
// that and streams uploads through Node instead.
const { existsSync } = require('node:fs');
const path = require('node:path');

try {
  module.exports = require('./build/Release/receive.node');
} catch (err) {
  const note = path.join(__dirname, 'build-failed.txt');
  if (existsSync(note)) throw new Error(`the native build failed at install time, see ${note}`, { cause: err });
  throw err;
}
