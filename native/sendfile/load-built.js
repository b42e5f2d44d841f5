'use strict';
// Loads one compiled module of this package (build/Release/<name>.node). It
// throws when that module was not built (no C compiler at install time, or
// not Linux), naming build-failed.txt when install.js left one: the caller
// catches that and falls back to its Node path.
const { existsSync } = require('node:fs');
const path = require('node:path');

module.exports = function loadBuilt(name) {
  try {
    return require(`./build/Release/${name}.node`);
  } catch (err) {
    const note = path.join(__dirname, 'build-failed.txt');
    if (existsSync(note)) throw new Error(`the native build failed at install time, see ${note}`, { cause: err });
    throw err;
  }
};
