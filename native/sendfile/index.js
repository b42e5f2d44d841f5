'use strict';
// The compiled addon (sendfile). Throws when it was not built: the caller
// catches that and streams instead.
module.exports = require('./load-built')('sendfile');
