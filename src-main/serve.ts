#!/usr/bin/env node
/**
 * Headless entry: the same core as the desktop app, without a window
 * (servers, CI, tests). `node dist/main/serve.js --help` lists the flags.
 */
import { AppCore } from './app/app-core.js';
import { ConfigError, loadConfig } from './core/config.js';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig({ argv: process.argv.slice(2), env: process.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`bootwright: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (!config) return 0;

  const core = await AppCore.create({ config, consoleLog: true });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    core.kernel.log.info(`received ${signal}; stopping services`);
    core
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        process.stderr.write(`bootwright: stop failed: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  try {
    await core.start();
  } catch (err) {
    process.stderr.write(`bootwright: ${(err as Error).message}\n`);
    await core.stop();
    return 1;
  }
  core.kernel.log.info(`Bootwright ${core.kernel.build.version} serving the web UI and API at ${core.url()} (data in ${config.dataDir})`);
  logLanUrls(core);
  return -1;
}

/** Says where other machines reach the web UI, now and whenever that changes (a cable plugged in after start). */
function logLanUrls(core: AppCore): void {
  let last = '';
  const say = () => {
    const urls = core.lanUrls();
    const text = urls.join(', ');
    if (text === last) return;
    last = text;
    core.kernel.log.info(urls.length > 0 ? `web UI on the LAN: ${text}` : 'web UI on the LAN: no served interface has an address yet (it is listed here when a link comes up)');
  };
  say();
  core.kernel.network.onChange(say);
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`bootwright: fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
