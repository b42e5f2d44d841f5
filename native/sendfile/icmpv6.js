'use strict';
// Raw ICMPv6 (Router Advertisements), built beside sendfile by the same
// install script. Throws when it was not built: the caller catches that and
// sends no Router Advertisements.
module.exports = require('./load-built')('icmpv6');
