import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import YAML from 'yaml';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/** The process-level configuration (everything else lives in the store and the settings API). */
export interface AppConfig {
  dataDir: string;
  listen: ListenAddress;
  configFile: string | null;
  logLevel: LogLevel;
  /** Used only on the first start, when no user exists yet. */
  adminPassword: string | null;
  tlsCert: string | null;
  tlsKey: string | null;
}

export interface ListenAddress {
  host: string;
  port: number;
}

type ConfigKey = Exclude<keyof AppConfig, 'configFile'>;

interface OptionSpec {
  key: ConfigKey;
  /** The flag name, also the config file key with '-' → '_' and the env name upper-cased. */
  flag: string;
  arg: string;
  description: string;
  parse: (raw: string, source: string) => AppConfig[ConfigKey];
}

/** Every option, in --help order. Precedence: flag > env BOOTWRIGHT_<NAME> > config file > default. */
export const CONFIG_OPTIONS: readonly OptionSpec[] = [
  { key: 'dataDir', flag: 'data-dir', arg: 'dir', description: 'directory of the store, logs and boot files (default ./data)', parse: (raw) => path.resolve(raw) },
  { key: 'listen', flag: 'listen', arg: 'addr', description: 'HTTP address for the REST API, web UI and boot files (default 0.0.0.0:8080)', parse: parseListen },
  { key: 'logLevel', flag: 'log-level', arg: 'level', description: `log level: ${LOG_LEVELS.join(', ')} (default info)`, parse: parseLogLevel },
  { key: 'adminPassword', flag: 'admin-password', arg: 'password', description: 'password of the admin user created on the first start (default: generated and printed once)', parse: (raw) => raw },
  { key: 'tlsCert', flag: 'tls-cert', arg: 'file', description: 'PEM certificate: serve HTTPS instead of HTTP (with --tls-key)', parse: (raw) => path.resolve(raw) },
  { key: 'tlsKey', flag: 'tls-key', arg: 'file', description: 'PEM private key for --tls-cert', parse: (raw) => path.resolve(raw) },
];

export function defaultConfig(dataDir = path.resolve('data')): AppConfig {
  return {
    dataDir,
    listen: { host: '0.0.0.0', port: 8080 },
    configFile: null,
    logLevel: 'info',
    adminPassword: null,
    tlsCert: null,
    tlsKey: null,
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface LoadConfigInput {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Default data directory (the Electron entry passes the app's userData folder). */
  defaultDataDir?: string;
  /** Where --help and errors go; defaults to the process streams. */
  writeOut?: (text: string) => void;
}

/**
 * Resolves the configuration from flags, environment and config file.
 * Returns null when --help or --version was answered.
 */
export function loadConfig(input: LoadConfigInput): AppConfig | null {
  const program = new Command('bootwright-serve')
    .description('Bootwright headless server: DNS, DHCP, TFTP, HTTP boot and the REST API without a window.')
    .exitOverride()
    .allowExcessArguments(false)
    .configureOutput({
      writeOut: input.writeOut ?? ((text) => process.stdout.write(text)),
      writeErr: input.writeOut ?? ((text) => process.stderr.write(text)),
    });
  program.addOption(new Option('--config <file>', 'YAML or JSON config file (keys: the flag names with _ for -)'));
  for (const spec of CONFIG_OPTIONS) {
    program.addOption(
      new Option(`--${spec.flag} <${spec.arg}>`, `${spec.description} [env ${envName(spec.flag)}]`).argParser((raw) => {
        try {
          spec.parse(raw, `--${spec.flag}`);
          return raw;
        } catch (err) {
          throw new InvalidArgumentError((err as Error).message);
        }
      }),
    );
  }
  try {
    program.parse([...input.argv], { from: 'user' });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return null;
    throw new ConfigError((err as Error).message);
  }
  const flags = program.opts<Record<string, string | undefined>>();

  const config = defaultConfig(input.defaultDataDir ?? path.resolve('data'));
  const configFile = flags.config ?? input.env.BOOTWRIGHT_CONFIG ?? null;
  const fileValues = configFile ? readConfigFile(configFile) : {};
  config.configFile = configFile ? path.resolve(configFile) : null;

  for (const spec of CONFIG_OPTIONS) {
    const camel = spec.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const fromFlag = flags[camel];
    const fromEnv = input.env[envName(spec.flag)];
    const fromFile = fileValues[spec.flag.replace(/-/g, '_')];
    const [raw, source] =
      fromFlag !== undefined ? [fromFlag, `--${spec.flag}`]
      : fromEnv !== undefined && fromEnv !== '' ? [fromEnv, envName(spec.flag)]
      : fromFile !== undefined ? [fromFile, `${configFile}: ${spec.flag.replace(/-/g, '_')}`]
      : [undefined, ''];
    if (raw === undefined) continue;
    try {
      (config as unknown as Record<string, unknown>)[spec.key] = spec.parse(raw, source);
    } catch (err) {
      throw new ConfigError(`${source}: ${(err as Error).message}`);
    }
  }
  return config;
}

export function envName(flag: string): string {
  return `BOOTWRIGHT_${flag.replace(/-/g, '_').toUpperCase()}`;
}

function readConfigFile(file: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`config file ${file}: ${(err as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file}: expected a mapping of option names to values`);
  }
  const known = new Set(CONFIG_OPTIONS.map((spec) => spec.flag.replace(/-/g, '_')));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.has(key)) {
      throw new ConfigError(`config file ${file}: unknown option "${key}"; known options are ${[...known].join(', ')}`);
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new ConfigError(`config file ${file}: option "${key}" must be a string or number`);
    }
    out[key] = String(value);
  }
  return out;
}

export function parseListen(raw: string): ListenAddress {
  const trimmed = raw.trim();
  const bracketed = /^\[([0-9a-fA-F:.]+)\]:(\d+)$/.exec(trimmed);
  const plain = /^([^:\s]+):(\d+)$/.exec(trimmed);
  const portOnly = /^(\d+)$/.exec(trimmed);
  let host: string;
  let port: number;
  if (bracketed) [host, port] = [bracketed[1]!, Number(bracketed[2])];
  else if (plain) [host, port] = [plain[1]!, Number(plain[2])];
  else if (portOnly) [host, port] = ['0.0.0.0', Number(portOnly[1])];
  else throw new Error(`"${raw}" is not an address: use HOST:PORT, [IPv6]:PORT or PORT`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port ${port} is out of range 0-65535`);
  return { host, port };
}

function parseLogLevel(raw: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new Error(`"${raw}" is not a log level: use one of ${LOG_LEVELS.join(', ')}`);
}
