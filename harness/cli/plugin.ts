// `touchstone plugin --plugin CMD`: lint the plugin suites, check the command starts, run
// every case against it through Playwright and turn the results into an exit code (0
// conforming, 1 failures, 2 usage, 3 the plugin cannot be started at all).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError } from '../errors.js';
import { runPluginProcess, splitCommand } from '../plugin/plugin-process.js';
import { lintPluginSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import type { RunConfig } from '../suite/run-config.js';
import { suitePaths } from '../suite/suite-paths.js';
import { exitCodeOf, reportDirectory, runConformance } from './conformance-process.js';
import { PLUGIN_FIXTURES_DIR, PLUGIN_SUITES_DIR } from './plugin-fixtures.js';

export interface PluginOptions {
  plugin: string;
  suite: string[];
  out?: string;
  strict: boolean;
  baseline?: string;
  timeout: number;
  'max-output': number;
}

export const pluginCommand = {
  command: 'plugin',
  describe: 'Run the plugin conformance suites against a code-generator plugin',
  builder: (yargs: Argv) =>
    yargs
      .option('plugin', { type: 'string', demandOption: true, describe: 'the plugin command, e.g. ./protoc-gen-foo or "npx protoc-gen-es" (words and quotes as in a shell)' })
      .option('suite', { type: 'array', string: true, default: [] as string[], describe: 'run only these suites (file names under suites/plugin)' })
      .option('out', { type: 'string', describe: 'report directory (default reports/<timestamp>)' })
      .option('strict', { type: 'boolean', default: false, describe: 'SHOULD failures count as FAIL' })
      .option('baseline', { type: 'string', describe: 'YAML list of known failures {case, reason}' })
      .option('timeout', { type: 'number', default: 30, describe: 'seconds one run of the plugin may take before it is killed (the case is ERROR)' })
      .option('max-output', { type: 'number', default: 256, describe: 'MiB of stdout one run may write before it is killed (the case is ERROR)' }),
  handler: async (argv: PluginOptions) => {
    process.exitCode = await runPluginSuites(argv);
  },
};

export async function runPluginSuites(options: PluginOptions): Promise<number> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-'));
  try {
    if (!(options.timeout > 0) || !(options['max-output'] > 0)) throw new HarnessError('USAGE', '--timeout and --max-output must be positive numbers');
    const command = splitCommand(options.plugin);
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const suites = loadPluginSuites(PLUGIN_SUITES_DIR, options.suite);
    const problems = lintPluginSuites(suites, registry, PLUGIN_FIXTURES_DIR);
    if (problems.length) throw new HarnessError('CONFIG', `the plugin suites do not pass the lint:\n  ${problems.join('\n  ')}`);
    const limits = { timeoutMs: options.timeout * 1000, maxOutputBytes: options['max-output'] * 1024 * 1024 };
    // A command that cannot start at all would make every case ERROR: say so once instead.
    const probe = await runPluginProcess(command, new Uint8Array(0), limits);
    if (probe.spawnError) throw new HarnessError('TARGET_UNREACHABLE', `the plugin cannot be started: ${probe.spawnError}`);

    const startedAt = new Date();
    const config: RunConfig = {
      kind: 'plugin',
      targetUrl: options.plugin,
      embedded: false,
      tokens: {},
      cassettes: false,
      suites: options.suite,
      outDir: reportDirectory(options.out, startedAt),
      strict: options.strict,
      capabilities: [],
      baselineFile: options.baseline && path.resolve(options.baseline),
      startedAt: startedAt.toISOString(),
      plugin: { command, ...limits },
    };
    return exitCodeOf(await runConformance(config, 'harness/plugin/plugin-conformance.config.ts', scratch));
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
