import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { BootwrightApi } from '../../../src-preload/preload.cjs';
import type { FakeElectronIpc } from './fake-electron-ipc.js';

const PRELOAD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src-preload/preload.cts');

/**
 * Runs the preload the way a sandboxed Electron renderer does: compiled to
 * CommonJS, inside a function wrapper whose `require` knows only 'electron'
 * (here a fake whose ipcRenderer is the fake IPC pair), with a minimal
 * `process`. Returns what it exposed through the context bridge.
 */
export function loadPreload(ipc: Pick<FakeElectronIpc, 'ipcRenderer'>): { key: string; api: BootwrightApi; exports: Record<string, unknown> } {
  const { outputText } = ts.transpileModule(readFileSync(PRELOAD, 'utf8'), {
    fileName: 'preload.cts',
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  let exposed: { key: string; api: BootwrightApi } | null = null;
  const electron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: BootwrightApi) {
        exposed = { key, api };
      },
    },
    ipcRenderer: ipc.ipcRenderer,
  };
  const sandboxRequire = (name: string) => {
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name}`);
  };
  const sandboxProcess = { platform: 'linux', versions: { electron: '41.0.0', chrome: '140.0.0.0' } };
  const exports: Record<string, unknown> = {};
  new Function('require', 'process', 'exports', 'module', outputText)(sandboxRequire, sandboxProcess, exports, { exports });
  if (!exposed) throw new Error('the preload exposed nothing');
  return { ...(exposed as { key: string; api: BootwrightApi }), exports };
}
