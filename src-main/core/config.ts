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
  /** Extra folders served roots (TFTP root, …) may lie in, beside <data-dir>/boot and <data-dir>/images (docs/boot-files.md). */
  allowedRoots: string[];
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
  /** One value per element (a list option) or the whole value. */
  parse: (raw: string, source: string) => AppConfig[ConfigKey] | string;
  /**
   * A list option: the flag repeats, the environment variable separates with
   * the platform's path delimiter (`:`, `;` on Windows), the file takes a
   * string or a list. The first source that sets it wins, as for the others.
   */
  list?: { env: string; fileKey: string };
}

/** Every option, in --help order. Precedence: flag > env BOOTWRIGHT_<NAME> > config file > default. */
export const CONFIG_OPTIONS: readonly OptionSpec[] = [
  { key: 'dataDir', flag: 'data-dir', arg: 'dir', description: 'directory of the store, logs and boot files (default ./data)', parse: (raw) => path.resolve(raw) },
  { key: 'listen', flag: 'listen', arg: 'addr', description: 'HTTP address for the REST API, web UI and boot files (default 0.0.0.0:8080)', parse: parseListen },
  { key: 'logLevel', flag: 'log-level', arg: 'level', description: `log level: ${LOG_LEVELS.join(', ')} (default info)`, parse: parseLogLevel },
  { key: 'adminPassword', flag: 'admin-password', arg: 'password', description: 'password of the admin user created on the first start (default: generated and printed once)', parse: (raw) => raw },
  { key: 'tlsCert', flag: 'tls-cert', arg: 'file', description: 'PEM certificate: serve HTTPS instead of HTTP (with --tls-key)', parse: (raw) => path.resolve(raw) },
  { key: 'tlsKey', flag: 'tls-key', arg: 'file', description: 'PEM private key for --tls-cert', parse: (raw) => path.resolve(raw) },
  {
    key: 'allowedRoots',
    flag: 'allowed-root',
    arg: 'dir',
    description: 'a folder served roots (the TFTP root) may lie in, besides <data-dir>/boot and <data-dir>/images; repeatable',
    parse: parseAllowedRoot,
    list: { env: 'BOOTWRIGHT_ALLOWED_ROOTS', fileKey: 'allowed_roots' },
  },
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
    allowedRoots: [],
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
      new Option(`--${spec.flag} <${spec.arg}>`, `${spec.description} [env ${envOf(spec)}]`).argParser((raw: string, previous: unknown) => {
        try {
          spec.parse(raw, `--${spec.flag}`);
        } catch (err) {
          throw new InvalidArgumentError((err as Error).message);
        }
        return spec.list ? [...(Array.isArray(previous) ? (previous as string[]) : []), raw] : raw;
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
  const flags = program.opts<Record<string, string | string[] | undefined>>();

  const config = defaultConfig(input.defaultDataDir ?? path.resolve('data'));
  const configFile = (typeof flags.config === 'string' ? flags.config : undefined) ?? input.env.BOOTWRIGHT_CONFIG ?? null;
  const fileValues = configFile ? readConfigFile(configFile) : {};
  config.configFile = configFile ? path.resolve(configFile) : null;

  for (const spec of CONFIG_OPTIONS) {
    const camel = spec.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const fromFlag = flags[camel];
    const fromEnv = input.env[envOf(spec)];
    const fromFile = fileValues[fileKeyOf(spec)];
    const [raw, source] =
      fromFlag !== undefined ? [fromFlag, `--${spec.flag}`]
      : fromEnv !== undefined && fromEnv !== '' ? [spec.list ? fromEnv.split(path.delimiter).filter((part) => part !== '') : fromEnv, envOf(spec)]
      : fromFile !== undefined ? [fromFile, `${configFile}: ${fileKeyOf(spec)}`]
      : [undefined, ''];
    if (raw === undefined) continue;
    try {
      (config as unknown as Record<string, unknown>)[spec.key] = spec.list
        ? (Array.isArray(raw) ? raw : [raw]).map((item) => spec.parse(item, source))
        : spec.parse(Array.isArray(raw) ? raw.join(',') : raw, source);
    } catch (err) {
      throw new ConfigError(`${source}: ${(err as Error).message}`);
    }
  }
  return config;
}

export function envName(flag: string): string {
  return `BOOTWRIGHT_${flag.replace(/-/g, '_').toUpperCase()}`;
}

function envOf(spec: OptionSpec): string {
  return spec.list?.env ?? envName(spec.flag);
}

function fileKeyOf(spec: OptionSpec): string {
  return spec.list?.fileKey ?? spec.flag.replace(/-/g, '_');
}

function readConfigFile(file: string): Record<string, string | string[]> {
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
  const known = new Set(CONFIG_OPTIONS.map(fileKeyOf));
  const lists = new Set(CONFIG_OPTIONS.filter((spec) => spec.list).map(fileKeyOf));
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.has(key)) {
      throw new ConfigError(`config file ${file}: unknown option "${key}"; known options are ${[...known].join(', ')}`);
    }
    if (lists.has(key) && Array.isArray(value)) {
      if (!value.every((item) => typeof item === 'string')) throw new ConfigError(`config file ${file}: option "${key}" must be a string or a list of strings`);
      out[key] = value as string[];
      continue;
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

/**
 * Only the form is checked here; whether the folder exists and is not `/`,
 * a system folder or the data directory is checked when a root is served
 * (settings/served-roots.ts), since the data directory is known only then.
 */
function parseAllowedRoot(raw: string): string {
  if (raw.includes('\0')) throw new Error('an allowed root must not contain NUL');
  if (!path.isAbsolute(raw)) throw new Error(`"${raw}" is not an absolute path: an allowed root must be absolute`);
  return path.resolve(raw);
}

function parseLogLevel(raw: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new Error(`"${raw}" is not a log level: use one of ${LOG_LEVELS.join(', ')}`);
}
