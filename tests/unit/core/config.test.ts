import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseListen } from '../../../src-main/core/config.js';
import { tempDir } from '../../helpers/test-core.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => remove());

describe('loadConfig', () => {
  it('uses the defaults with no flags, env or file', () => {
    const config = loadConfig({ argv: [], env: {} })!;
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.listen).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(config.logLevel).toBe('info');
    expect(config.adminPassword).toBeNull();
  });

  it('applies precedence flag > env > file > default for each option', async () => {
    const file = path.join(dir, 'bootwright.yaml');
    await writeFile(file, 'listen: 127.0.0.1:9000\nlog_level: debug\ndata_dir: /srv/from-file\n');
    const config = loadConfig({
      argv: ['--config', file, '--listen', '127.0.0.2:9002'],
      env: { BOOTWRIGHT_LISTEN: '127.0.0.3:9003', BOOTWRIGHT_LOG_LEVEL: 'warn' },
    })!;
    expect(config.listen).toEqual({ host: '127.0.0.2', port: 9002 }); // flag wins over env and file
    expect(config.logLevel).toBe('warn'); // env wins over file
    expect(config.dataDir).toBe('/srv/from-file'); // file wins over default
    expect(config.configFile).toBe(file);
  });

  it('reads a JSON config file named by BOOTWRIGHT_CONFIG', async () => {
    const file = path.join(dir, 'bootwright.json');
    await writeFile(file, JSON.stringify({ admin_password: 'from-file-secret', listen: '8443' }));
    const config = loadConfig({ argv: [], env: { BOOTWRIGHT_CONFIG: file } })!;
    expect(config.adminPassword).toBe('from-file-secret');
    expect(config.listen).toEqual({ host: '0.0.0.0', port: 8443 });
  });

  it('rejects unknown config file keys, bad values and unknown flags with a clear message', async () => {
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'listen_port: 80\n');
    expect(() => loadConfig({ argv: ['--config', file], env: {} })).toThrow(/unknown option "listen_port"/);
    expect(() => loadConfig({ argv: ['--log-level', 'loud'], env: {}, writeOut: () => undefined })).toThrow(ConfigError);
    expect(() => loadConfig({ argv: [], env: { BOOTWRIGHT_LISTEN: 'nowhere' } })).toThrow(/BOOTWRIGHT_LISTEN: "nowhere" is not an address/);
    expect(() => loadConfig({ argv: ['--bogus'], env: {}, writeOut: () => undefined })).toThrow(ConfigError);
  });

  it('collects allowed roots from repeated flags, the path-list variable or a file list', async () => {
    expect(loadConfig({ argv: [], env: {} })!.allowedRoots).toEqual([]);
    expect(loadConfig({ argv: ['--allowed-root', '/srv/tftp', '--allowed-root=/srv/isos'], env: {} })!.allowedRoots).toEqual(['/srv/tftp', '/srv/isos']);
    expect(loadConfig({ argv: [], env: { BOOTWRIGHT_ALLOWED_ROOTS: `/srv/a${path.delimiter}/srv/b` } })!.allowedRoots).toEqual(['/srv/a', '/srv/b']);
    const file = path.join(dir, 'roots.yaml');
    await writeFile(file, 'allowed_roots:\n  - /srv/x\n  - /srv/y\n');
    expect(loadConfig({ argv: ['--config', file], env: {} })!.allowedRoots).toEqual(['/srv/x', '/srv/y']);
    await writeFile(file, 'allowed_roots: /srv/z\n');
    expect(loadConfig({ argv: ['--config', file], env: {} })!.allowedRoots).toEqual(['/srv/z']);
    // The flag wins over the file, as for every option.
    expect(loadConfig({ argv: ['--config', file, '--allowed-root', '/srv/flag'], env: {} })!.allowedRoots).toEqual(['/srv/flag']);
    expect(() => loadConfig({ argv: ['--allowed-root', 'relative'], env: {}, writeOut: () => undefined })).toThrow(/not an absolute path/);
    expect(() => loadConfig({ argv: [], env: { BOOTWRIGHT_ALLOWED_ROOTS: 'rel' } })).toThrow(/BOOTWRIGHT_ALLOWED_ROOTS: "rel" is not an absolute path/);
  });

  it('answers --help with every option and its environment variable', () => {
    let out = '';
    expect(loadConfig({ argv: ['--help'], env: {}, writeOut: (text) => (out += text) })).toBeNull();
    for (const text of ['--data-dir', '--listen', '--config', '--log-level', '--admin-password', '--allowed-root', 'BOOTWRIGHT_DATA_DIR', 'BOOTWRIGHT_ADMIN_PASSWORD', 'BOOTWRIGHT_ALLOWED_ROOTS']) {
      expect(out).toContain(text);
    }
  });
});

describe('parseListen', () => {
  it.each([
    ['0.0.0.0:8080', { host: '0.0.0.0', port: 8080 }],
    ['[::1]:8080', { host: '::1', port: 8080 }],
    ['localhost:80', { host: 'localhost', port: 80 }],
    ['9090', { host: '0.0.0.0', port: 9090 }],
  ])('parses %s', (raw, expected) => {
    expect(parseListen(raw)).toEqual(expected);
  });
  it('rejects a port out of range', () => {
    expect(() => parseListen('1.2.3.4:70000')).toThrow(/out of range/);
  });
});
