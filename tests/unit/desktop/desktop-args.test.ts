import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src-main/core/config.js';
import { desktopConfigArgs } from '../../../src-main/desktop/desktop-args.js';

describe('desktopConfigArgs', () => {
  it('keeps our flags with their values and drops Chromium switches and the app path', () => {
    const argv = ['.', '--no-sandbox', '--data-dir', '/tmp/bw', '--enable-logging', '--listen=127.0.0.1:9090', '--log-level', 'debug', '--ozone-platform=wayland'];
    expect(desktopConfigArgs(argv)).toEqual(['--data-dir', '/tmp/bw', '--listen=127.0.0.1:9090', '--log-level', 'debug']);
  });

  it('ignores a flag with no value at the end', () => {
    expect(desktopConfigArgs(['--data-dir'])).toEqual([]);
  });

  it('feeds loadConfig without tripping its strict parser', () => {
    const config = loadConfig({ argv: desktopConfigArgs(['--no-sandbox', '--listen', '127.0.0.1:9191']), env: {}, defaultDataDir: '/tmp/user-data' });
    expect(config).toMatchObject({ dataDir: '/tmp/user-data', listen: { host: '127.0.0.1', port: 9191 } });
  });
});
