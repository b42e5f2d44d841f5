import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { RENDERER_CSP } from '../../../src-main/api/http-app.js';
import viteConfig from '../../../vite.renderer.config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Width and height from a PNG's IHDR (RFC 2083 §4.1.1), after checking the signature. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(path.join(ROOT, file));
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { output: string };
  files: string[];
  extraResources: { from: string; to: string }[];
  linux: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
}

describe('electron-builder.yml', () => {
  const config = YAML.parse(read('electron-builder.yml')) as BuilderConfig;

  it('names the app and writes to release/', () => {
    expect(config).toMatchObject({ appId: 'io.bootwright.app', productName: 'Bootwright', directories: { output: 'release' } });
    expect(config.files).toEqual(expect.arrayContaining(['dist/**', 'package.json']));
  });

  it('builds AppImage + deb, nsis + portable and dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis', 'portable']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('points at resources and icons that exist', () => {
    for (const { from } of config.extraResources) expect(existsSync(path.join(ROOT, from)), from).toBe(true);
    for (const icon of [config.win.icon, config.mac.icon]) expect(existsSync(path.join(ROOT, icon)), icon).toBe(true);
    expect(existsSync(path.join(ROOT, config.linux.icon, '256x256.png'))).toBe(true);
    expect(existsSync(path.join(ROOT, config.linux.icon, '512x512.png'))).toBe(true);
  });

  it('.gitignore keeps the build output out of git', () => {
    expect(read('.gitignore').split('\n')).toEqual(expect.arrayContaining(['release/', 'test-output/']));
  });
});

describe('icons', () => {
  it.each([
    ['resources/icons/512x512.png', 512],
    ['resources/icons/256x256.png', 256],
    ['resources/icons/tray@2x.png', 32],
    ['resources/icons/tray.png', 16],
    ['src-renderer/public/favicon.png', 32],
  ])('%s is a %i px PNG', (file, size) => {
    expect(pngSize(file)).toEqual({ width: size, height: size });
  });
});

describe('systemd unit', () => {
  const unit = read('resources/systemd/bootwright.service');
  const values = (key: string) =>
    unit
      .split('\n')
      .filter((line) => line.startsWith(`${key}=`))
      .map((line) => line.slice(key.length + 1));

  it('runs the headless server on the state directory as its own user', () => {
    expect(values('ExecStart')).toEqual(['node --max-semi-space-size=32 /opt/bootwright/dist/main/serve.js --data-dir /var/lib/bootwright']);
    expect(values('StateDirectory')).toEqual(['bootwright']);
    expect(values('User')).toEqual(['bootwright']);
    expect(values('Restart')).toEqual(['on-failure']);
  });

  it('grants exactly the network capabilities, and no way to gain more', () => {
    const caps = (key: string) => values(key).flatMap((value) => value.split(/\s+/)).sort();
    expect(caps('AmbientCapabilities')).toEqual(['CAP_NET_BIND_SERVICE', 'CAP_NET_RAW']);
    expect(caps('CapabilityBoundingSet')).toEqual(caps('AmbientCapabilities'));
    expect(values('NoNewPrivileges')).toEqual(['yes']);
  });

  it('keeps raw and broadcast sockets possible', () => {
    expect(values('RestrictAddressFamilies')[0]?.split(/\s+/)).toEqual(expect.arrayContaining(['AF_INET', 'AF_INET6', 'AF_PACKET', 'AF_NETLINK']));
    for (const key of ['PrivateNetwork', 'IPAddressDeny', 'RestrictNetworkInterfaces']) expect(values(key)).toEqual([]);
  });
});

describe('web UI build settings', () => {
  it('index.html carries the server CSP as a meta tag (minus frame-ancestors, which meta cannot set)', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(read('src-renderer/index.html'))?.[1];
    const withoutFrameAncestors = RENDERER_CSP.split('; ').filter((directive) => !directive.startsWith('frame-ancestors')).join('; ');
    expect(meta).toBe(withoutFrameAncestors);
  });

  it('builds src-renderer into dist/renderer with absolute asset URLs', () => {
    expect(viteConfig).toMatchObject({
      root: path.join(ROOT, 'src-renderer'),
      base: '/',
      build: { outDir: path.join(ROOT, 'dist', 'renderer'), emptyOutDir: true },
    });
  });
});
