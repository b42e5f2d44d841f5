import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNativeShape, nativeModuleLoader } from '../../../src-main/core/native-addon.js';
import { findTool } from '../../helpers/netns.js';
import { tempDir } from '../../helpers/test-core.js';

/*
 * native/sendfile/src/unsupported.c is what every module of the addon is
 * built from off Linux. It cannot be built that way here, but it compiles on
 * Linux too: built with each module's name and entry point, it must load with
 * `supported: false`, throw ENOSYS from that entry point, and make the
 * loader give the caller a reason (the callers then take their Node path).
 */
const SOURCE = path.resolve(import.meta.dirname, '../../../native/sendfile/src/unsupported.c');
const HEADERS = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
const missing = findTool('gcc') === null ? 'gcc is not installed' : existsSync(path.join(HEADERS, 'node_api.h')) ? null : `no Node headers in ${HEADERS}`;
if (missing) console.log(`unsupported.c test skipped: ${missing}`);

describe.skipIf(missing !== null)('the addon off Linux (unsupported.c, built here for the test)', () => {
  let dir: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir('bw-unsupported-');
  });
  afterAll(async () => {
    await dir?.remove();
  });

  for (const [module, method] of [['sendfile', 'start'], ['icmpv6', 'open'], ['receive', 'start']] as const) {
    it(`${module}: exports ${method}() throwing ENOSYS and supported: false; the loader answers a reason`, () => {
      const built = path.join(dir.dir, `${module}.node`);
      execFileSync('gcc', ['-shared', '-fPIC', '-Wall', '-Wextra', '-Werror', `-I${HEADERS}`, '-DNAPI_VERSION=8', `-DNODE_GYP_MODULE_NAME=${module}`, `-DUNSUPPORTED_METHOD=${method}`, '-o', built, SOURCE]);
      const exports = createRequire(import.meta.url)(built) as Record<string, unknown>;
      expect(Object.keys(exports).sort()).toEqual([method, 'supported'].sort());
      expect(exports.supported).toBe(false);
      expect(() => (exports[method] as () => void)()).toThrow(expect.objectContaining({ code: 'ENOSYS', message: `${module} is implemented on Linux only` }));
      const load = nativeModuleLoader(() => built, `the ${module} module`, (value): value is { supported: boolean } => hasNativeShape(value, method));
      expect(load()).toEqual({ binding: null, reason: `${built} was built without the ${module} module support` });
    });
  }
});
