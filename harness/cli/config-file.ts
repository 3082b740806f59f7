// Defaults for a command's options from touchstone.config.{ts,mts,js,mjs,json} and from
// TOUCHSTONE_* environment variables. main.ts applies them (applyConfig) to the commands of
// CONFIG_COMMANDS, after the command's own builder has declared its options.
//
// Precedence, highest first: a flag; TOUCHSTONE_<COMMAND>_<OPTION> (TOUCHSTONE_PROXY_TARGET);
// TOUCHSTONE_<OPTION> (TOUCHSTONE_TARGET, for every command with a --target); the command's
// section of the config file; the config file's top (verdict options, for run, plugin and
// compiler); the option's own default. The environment overrides the file so that CI can change
// one value of a committed config without editing it.
//
// Decisions where the issue is silent:
// - The file is found as Playwright finds its own: named by --config-file (or
//   TOUCHSTONE_CONFIG_FILE), else the first of CONFIG_FILE_NAMES in the folder the command runs
//   in; parent folders are not searched. `--config` stays the proxy's rules file.
// - Paths in the file (PATH_KEYS) are relative to the file's folder, as Playwright reads its
//   config; commands (`plugin: './protoc-gen-x'`) run in the folder touchstone runs in.
// - An environment variable set to the empty string counts as unset (as a shell's `VAR= cmd`
//   is usually meant). A repeatable option's variable takes a comma-separated list. A
//   TOUCHSTONE_* variable that names no option of the command is ignored: touchstone has
//   variables of its own (TOUCHSTONE_FROM_SOURCE, …) and so may the user's CI.
// - A key the file does not know is an error naming the closest known key: a typo must not
//   silently leave a default in place.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { closestName } from '../core/did-you-mean.js';
import { compileSchemaFile, createAjv, readDataFile } from '../core/validated-file.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';
import { projectPath } from '../../lib/project-files.js';
import { CONFIG_COMMANDS, type ConfigCommand, configSchemaFile, PATH_KEYS, type TouchstoneConfig } from './config-format.js';

export type { ConfigCommand, TouchstoneConfig };

export const CONFIG_FILE_NAMES = [
  'touchstone.config.ts',
  'touchstone.config.mts',
  'touchstone.config.js',
  'touchstone.config.mjs',
  'touchstone.config.json',
];
export const CONFIG_FILE_OPTION = 'config-file';
export const CONFIG_FILE_ENV = 'TOUCHSTONE_CONFIG_FILE';
/** The top-level keys of the file that every conformance run shares. */
const VERDICT_COMMANDS: readonly ConfigCommand[] = ['run', 'plugin', 'compiler'];

export function isConfigCommand(command: string): command is ConfigCommand {
  return (CONFIG_COMMANDS as readonly string[]).includes(command);
}

/** The value of `--config-file X` or `--config-file=X` among the raw arguments. */
function configFileArgument(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${CONFIG_FILE_OPTION}`) return args[i + 1] ?? '';
    if (args[i].startsWith(`--${CONFIG_FILE_OPTION}=`)) return args[i].slice(CONFIG_FILE_OPTION.length + 3);
  }
  return undefined;
}

/** The config file that applies: named (it must exist), or found in `cwd`; undefined when there is none. */
export function findConfigFile(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const fromArgs = configFileArgument(args);
  const named = fromArgs ?? (env[CONFIG_FILE_ENV] || undefined);
  if (named !== undefined) {
    const how = fromArgs !== undefined ? `--${CONFIG_FILE_OPTION}` : CONFIG_FILE_ENV;
    const file = path.resolve(cwd, named);
    if (named === '' || !existsSync(file)) throw new HarnessError('USAGE', `${how} ${named}: no such file`);
    if (!CONFIG_FILE_NAMES.some((name) => file.endsWith(name.slice('touchstone.config'.length))))
      throw new HarnessError('USAGE', `${how} ${named}: a config file ends in .ts, .mts, .js, .mjs or .json`);
    return file;
  }
  return CONFIG_FILE_NAMES.map((name) => path.join(cwd, name)).find((file) => existsSync(file));
}

/** Reads, checks and returns the config file's object. */
export async function readConfigFile(file: string): Promise<TouchstoneConfig> {
  let config: unknown;
  if (file.endsWith('.json')) config = readDataFile(file);
  else {
    let module: { default?: unknown };
    try {
      module = /\.m?ts$/.test(file)
        ? ((await (await import('tsx/esm/api')).tsImport(pathToFileURL(file).href, import.meta.url)) as { default?: unknown })
        : ((await import(pathToFileURL(file).href)) as { default?: unknown });
    } catch (error) {
      throw new HarnessError('CONFIG', `${file}: cannot load: ${(error as Error).message}`);
    }
    config = module.default;
    // A TypeScript module loaded as CommonJS holds its default export one level down.
    if (isObject(config) && 'default' in config && isObject(config.default) && Object.keys(config).length === 1) config = config.default;
  }
  if (!isObject(config))
    throw new HarnessError('CONFIG', `${file}: its default export must be the config object (export default defineConfig({ … }))`);
  checkKeys(file, config);
  const validate = compileSchemaFile(createAjv(), projectPath(configSchemaFile.path));
  if (!validate(config)) throw new HarnessError('CONFIG', `${file}: invalid: ${describeSchemaErrors(validate.errors)}`);
  return config as TouchstoneConfig;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unknown keys, each with the closest known key of its place (the schema's additionalProperties says only that one is extra). */
function checkKeys(file: string, config: Record<string, unknown>): void {
  const schema = configSchemaFile.document as { properties: Record<string, { properties?: Record<string, unknown> }> };
  const unknown = (keys: string[], known: string[], where: string) =>
    keys
      .filter((key) => !known.includes(key))
      .map((key) => {
        const near = closestName(key, known);
        return `${where}${key} is not a key of the config${near ? ` (did you mean ${where}${near}?)` : ''}`;
      });
  const problems = unknown(Object.keys(config), Object.keys(schema.properties), '');
  for (const command of CONFIG_COMMANDS)
    if (isObject(config[command]))
      problems.push(...unknown(Object.keys(config[command]), Object.keys(schema.properties[command].properties ?? {}), `${command}.`));
  if (problems.length > 0) throw new HarnessError('CONFIG', `${file}: ${problems.join('; ')}`);
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const envName = (...words: string[]) => `TOUCHSTONE_${words.join('_').replace(/-/g, '_').toUpperCase()}`;

/** What yargs knows of a command's options (its untyped getOptions; main.ts optionsOf). */
export interface YargsOptions {
  key: string[];
  array: string[];
  boolean: string[];
  number: string[];
  string: string[];
  choices: Record<string, string[]>;
}

/** A default and where it came from, for --help. */
interface Layered {
  value: unknown;
  from: string;
}

/**
 * The defaults `command` takes from the config (read from `configFile`) and from `env`, by
 * option (as the command declares it), in the type yargs would have given the flag.
 */
export function layeredDefaults(
  command: ConfigCommand,
  options: YargsOptions,
  env: NodeJS.ProcessEnv,
  config?: { file: string; cwd: string; values: TouchstoneConfig },
): Map<string, Layered> {
  const defaults = new Map<string, Layered>();
  if (config) {
    const { file, cwd, values } = config;
    const from = path.relative(cwd, file) || file;
    const top = VERDICT_COMMANDS.includes(command)
      ? Object.entries(values).filter(([key]) => !isConfigCommand(key) && key !== '$schema')
      : [];
    for (const [key, value] of [...top, ...Object.entries(values[command] ?? {})]) {
      if (value === undefined || !options.key.includes(kebab(key))) continue;
      const fromFile = (one: unknown) => path.relative(cwd, path.resolve(path.dirname(file), String(one))) || '.';
      const resolved = PATH_KEYS.has(key) ? (Array.isArray(value) ? value.map(fromFile) : fromFile(value)) : value;
      defaults.set(kebab(key), { value: fromConfig(kebab(key), resolved, options), from });
    }
  }
  for (const option of options.key) {
    for (const name of [envName(option), envName(command, option)]) {
      const text = env[name];
      if (text !== undefined && text !== '') defaults.set(option, { value: fromEnv(name, option, text, options), from: name });
    }
  }
  return defaults;
}

/** A value of the file, as the flag would have given it: a repeatable option a list of strings, a string option a string. */
function fromConfig(option: string, value: unknown, options: YargsOptions): unknown {
  if (options.array.includes(option)) {
    if (isObject(value)) return Object.entries(value).map(([kind, percent]) => `${kind}=${percent}`); // minCoverage
    return (Array.isArray(value) ? value : [value]).map(String);
  }
  return options.string.includes(option) ? String(value) : value;
}

/** A variable's text as the flag would have given it; a usage error naming the variable when it cannot be. */
function fromEnv(name: string, option: string, text: string, options: YargsOptions): unknown {
  const wrong = (what: string) => new HarnessError('USAGE', `${name}=${text}: ${what} (it sets --${option})`);
  const choices = options.choices[option];
  if (choices && !choices.includes(text)) throw wrong(`not one of ${choices.join(', ')}`);
  if (options.array.includes(option))
    return text
      .split(',')
      .map((word) => word.trim())
      .filter((word) => word !== '');
  if (options.boolean.includes(option)) {
    if (/^(true|1|yes)$/i.test(text)) return true;
    if (/^(false|0|no)$/i.test(text)) return false;
    throw wrong('not true or false');
  }
  if (options.number.includes(option)) {
    const number = Number(text);
    if (text.trim() === '' || !Number.isFinite(number)) throw wrong('not a number');
    return number;
  }
  return text;
}

/**
 * Declares --config-file on `yargs` (a command of CONFIG_COMMANDS, its options declared) and
 * sets the defaults the config file and the environment give its options.
 */
export async function applyConfig(
  yargs: Argv,
  command: ConfigCommand,
  options: YargsOptions,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<Argv> {
  yargs.option(CONFIG_FILE_OPTION, {
    type: 'string',
    describe: `defaults for these options (default: ./touchstone.config.{ts,mts,js,mjs,json} if there is one, or $${CONFIG_FILE_ENV}); flags and TOUCHSTONE_* variables override it`,
  });
  const file = findConfigFile(args, env, cwd);
  const config = file === undefined ? undefined : { file, cwd, values: await readConfigFile(file) };
  for (const [option, { value, from }] of layeredDefaults(command, options, env, config))
    yargs.default(option, value, `${JSON.stringify(value)}, from ${from}`);
  return yargs;
}
