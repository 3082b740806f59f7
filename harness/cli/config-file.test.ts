// touchstone.config.* and TOUCHSTONE_* variables: every option of a configurable command can be
// set there, in the order of precedence config-file.ts promises, and a bad file or variable is a
// clear error naming it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import yargs, { type Argv } from 'yargs';
import { runCli } from '../../test-support/cli-process.js';
import { HarnessError } from '../core/errors.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { findConfigFile, layeredDefaults, readConfigFile, type YargsOptions } from './config-file.js';
import { CONFIG_COMMANDS, configSchemaFile } from './config-format.js';
import { optionsOf, type CommandFile } from './main.js';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-config-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The options `command`'s builder declares, as main.ts sees them. */
async function commandOptions(command: string): Promise<YargsOptions> {
  const file = (await import(`./${command}.ts`)) as CommandFile;
  return optionsOf(file.command.builder(yargs([]) as Argv));
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

test('each configurable command has a section whose keys are its options in camelCase, no more and no fewer', async () => {
  const sections = (configSchemaFile.document as { properties: Record<string, { properties: Record<string, unknown> }> }).properties;
  for (const command of CONFIG_COMMANDS) {
    const options = (await commandOptions(command)).key;
    expect(Object.keys(sections[command].properties).map(kebab).sort(), `the config's ${command} section`).toEqual([...options].sort());
  }
});

test('a command takes, highest first: TOUCHSTONE_<COMMAND>_<OPTION>, TOUCHSTONE_<OPTION>, its section, the top of the file', async () => {
  const options = await commandOptions('run');
  const file = path.join(dir, 'touchstone.config.json');
  const config = {
    file,
    cwd: dir,
    values: {
      strict: true,
      baseline: 'top.yaml',
      out: 'top',
      run: { out: 'section', workers: 2, requestTimeout: 7, minCoverage: { requirements: 90, endpoints: 80 } },
    },
  };
  const defaults = layeredDefaults(
    'run',
    options,
    { TOUCHSTONE_OUT: 'env', TOUCHSTONE_RUN_OUT: 'run-env', TOUCHSTONE_SUITE: 'a, b', TOUCHSTONE_STRICT: 'false' },
    config,
  );
  const values = Object.fromEntries([...defaults].map(([option, { value }]) => [option, value]));
  expect(values).toEqual({
    out: 'run-env',
    baseline: 'top.yaml',
    strict: false,
    workers: 2,
    // Given as the flag would give it: the flag is a string, a repeatable flag a list.
    'request-timeout': '7',
    'min-coverage': ['requirements=90', 'endpoints=80'],
    suite: ['a', 'b'],
  });
  expect(defaults.get('out')?.from).toBe('TOUCHSTONE_RUN_OUT');
  expect(defaults.get('baseline')?.from).toBe('touchstone.config.json');
  // The top of the file serves run, plugin and compiler only.
  expect(layeredDefaults('proxy', await commandOptions('proxy'), {}, { ...config, values: { strict: true, out: 'x' } }).size).toBe(0);
  // Empty variables are unset; variables naming no option of the command are not its concern.
  expect(layeredDefaults('run', options, { TOUCHSTONE_OUT: '', TOUCHSTONE_FROM_SOURCE: '1', TOUCHSTONE_PROXY_OUT: 'x' }).size).toBe(0);
});

test('paths in a config file are relative to its folder; a variable that cannot be its option is an error naming both', async () => {
  const options = await commandOptions('proxy');
  const nested = path.join(dir, 'ci', 'touchstone.config.json');
  const defaults = layeredDefaults(
    'proxy',
    options,
    {},
    { file: nested, cwd: dir, values: { proxy: { cassette: 'tapes/a.cassette.json', target: 'http://x' } } },
  );
  expect(defaults.get('cassette')?.value).toBe(path.join('ci', 'tapes', 'a.cassette.json'));
  expect(defaults.get('target')?.value).toBe('http://x');
  // A list of paths is resolved entry by entry; --proto names files as protoc's inputs, under a --proto-path.
  const plugin = layeredDefaults(
    'plugin',
    await commandOptions('plugin'),
    {},
    {
      file: nested,
      cwd: dir,
      values: { plugin: { protoPath: ['protos', '../vendor'], proto: 'api/v1/api.proto' } },
    },
  );
  expect(plugin.get('proto-path')?.value).toEqual([path.join('ci', 'protos'), 'vendor']);
  expect(plugin.get('proto')?.value).toEqual(['api/v1/api.proto']);
  const refused = (env: NodeJS.ProcessEnv) => {
    try {
      layeredDefaults('proxy', options, env);
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };
  expect(refused({ TOUCHSTONE_PORT: 'eighty' })).toBe('TOUCHSTONE_PORT=eighty: not a number (it sets --port)');
  expect(refused({ TOUCHSTONE_PROXY_MODE: 'rec' })).toMatch(
    /^TOUCHSTONE_PROXY_MODE=rec: not one of replay, record, .* \(it sets --mode\)$/,
  );
  expect(refused({ TOUCHSTONE_ALLOW_REMOTE: 'maybe' })).toBe('TOUCHSTONE_ALLOW_REMOTE=maybe: not true or false (it sets --allow-remote)');
});

test('a config file with an unknown key, a wrong type or no object is refused, naming the file and the closest key', async () => {
  const write = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const refusal = (file: string) =>
    readConfigFile(file).then(
      () => 'accepted',
      (error: Error) => error.message,
    );
  expect(await refusal(write('a.json', '{"strikt": true, "run": {"suites": ["x"]}}'))).toBe(
    `${dir}/a.json: strikt is not a key of the config (did you mean strict?); run.suites is not a key of the config (did you mean run.suite?)`,
  );
  expect(await refusal(write('b.json', '{"run": {"workers": "two"}}'))).toContain('/run/workers must be number');
  expect(await refusal(write('c.mjs', 'export default 42;\n'))).toContain('its default export must be the config object');
  expect(await refusal(write('d.mjs', 'throw new Error("boom");\n'))).toBe(`${dir}/d.mjs: cannot load: boom`);
  expect(await refusal(write('e.json', '{"run": '))).toContain(`${dir}/e.json: not valid JSON`);
});

test('the file is --config-file, else TOUCHSTONE_CONFIG_FILE, else touchstone.config.* in the folder the command runs in', () => {
  expect(findConfigFile([], {}, dir)).toBeUndefined();
  writeFileSync(path.join(dir, 'touchstone.config.json'), '{}');
  writeFileSync(path.join(dir, 'touchstone.config.mjs'), 'export default {};');
  expect(findConfigFile([], {}, dir)).toBe(path.join(dir, 'touchstone.config.mjs'));
  mkdirSync(path.join(dir, 'ci'));
  writeFileSync(path.join(dir, 'ci', 'ci.config.json'), '{}');
  expect(findConfigFile([], { TOUCHSTONE_CONFIG_FILE: 'ci/ci.config.json' }, dir)).toBe(path.join(dir, 'ci', 'ci.config.json'));
  expect(findConfigFile(['run', '--config-file=touchstone.config.json'], { TOUCHSTONE_CONFIG_FILE: 'ci/ci.config.json' }, dir)).toBe(
    path.join(dir, 'touchstone.config.json'),
  );
  expect(() => findConfigFile(['--config-file', 'missing.ts'], {}, dir)).toThrow('--config-file missing.ts: no such file');
  expect(() => findConfigFile([], { TOUCHSTONE_CONFIG_FILE: 'ci' }, dir)).toThrow(
    'TOUCHSTONE_CONFIG_FILE ci: a config file ends in .ts, .mts, .js, .mjs or .json',
  );
});

test('touchstone run takes its options from touchstone.config.ts (defineConfig from the package), the environment over it and flags over both', async () => {
  test.slow(); // one run of a suite
  // The config imports touchstone by name, as in a project that installed it.
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(PROJECT_ROOT, path.join(dir, 'node_modules', 'touchstone'));
  writeFileSync(
    path.join(dir, 'touchstone.config.ts'),
    "import { defineConfig } from 'touchstone';\n\nexport default defineConfig({ strict: true, run: { suite: 'assignees', out: 'reports/from-config' } });\n",
  );
  const help = await runCli(['run', '--help'], {}, dir);
  expect(help.stdout).toContain('[default: ["assignees"], from touchstone.config.ts]');
  // A suite named in the environment wins over the file, a flag over the environment: each is
  // refused by name before anything starts.
  expect((await runCli(['run'], { TOUCHSTONE_RUN_SUITE: 'from-env' }, dir)).stderr).toContain('unknown suite from-env');
  expect((await runCli(['run', '--suite', 'from-flag'], { TOUCHSTONE_SUITE: 'from-env' }, dir)).stderr).toContain(
    'unknown suite from-flag',
  );
  const run = await runCli(['run'], {}, dir);
  expect(run.code, run.stderr).toBe(0);
  const results = JSON.parse(readFileSync(path.join(dir, 'reports', 'from-config', 'results.json'), 'utf8'));
  expect(results.verdict).toBe('conforming');
  expect(new Set(results.cases.map((c: { id: string }) => c.id.split('/')[0]))).toEqual(new Set(['assignees']));
  expect(results.strict).toBe(true);
});
