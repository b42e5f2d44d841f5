'use strict';
// Receiving upload bodies into files (hashed, written with O_DIRECT), built
// beside sendfile by the same install script. Throws when it was not built:
// the caller catches that and streams uploads through Node instead.
module.exports = require('./load-built')('receive');
