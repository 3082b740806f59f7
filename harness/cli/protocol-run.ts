// What `touchstone plugin` and `touchstone compiler` share: their common options, the
// checks of those options, the run configuration, and turning the results (or a harness
// error) into an exit code: 0 conforming, 1 failures, 2 usage, 3 the target cannot start, 4 incomplete.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import type { PluginProcessOptions } from '../plugin/plugin-process.js';
import type { RunConfig } from '../core/run-config.js';
import { exitCodeOf } from '../core/exit-code.js';
import { colourWanted } from '../report/console-colour.js';
import { coverageShortfalls, parseMinCoverage } from '../core/coverage.js';
import { reportDirectory, runConformance } from '../run/conformance-process.js';
import type { RunPlan } from '../run/run-plan.js';
import type { Results } from '../core/results.js';
import type { ProtocolRunOptions } from './options.js';

/** The flags that turn results into an exit code: only the command line has one. */
export interface VerdictArgs {
  allowIncomplete: boolean;
  minCoverage: string[];
}

/**
 * The exit code of a command that runs suites: `work`'s results judged by exitCodeOf, with
 * each coverage shortfall said; a HarnessError said on stderr, its code the exit code.
 * --min-coverage is checked before the work starts.
 */
export async function judged(args: VerdictArgs, work: () => Promise<Results>): Promise<number> {
  try {
    const minCoverage = parseMinCoverage(args.minCoverage);
    const results = await work();
    for (const shortfall of coverageShortfalls(results, minCoverage)) process.stdout.write(`touchstone: ${shortfall}\n`);
    return exitCodeOf(results, args.allowIncomplete, minCoverage);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  }
}

/** How every conformance run (run, plugin, compiler) turns its results into a verdict and an exit code. */
export function verdictOptions<T>(yargs: Argv<T>) {
  return yargs
    .option('out', { type: 'string', describe: 'report directory (default reports/<timestamp>)' })
    .option('strict', { type: 'boolean', default: false, describe: 'SHOULD failures count as FAIL' })
    .option('allow-incomplete', {
      type: 'boolean',
      default: false,
      describe: 'exit 0 when nothing failed even though MUST requirements went unchecked (missing tokens or capabilities)',
    })
    .option('baseline', { type: 'string', describe: 'known failures and known-flaky cases (YAML; see docs/reports-and-baselines.md)' })
    .option('min-coverage', {
      type: 'array',
      string: true,
      default: [] as string[],
      describe: 'exit 4 when coverage is below PERCENT: for every kind, or KIND=PERCENT (requirements, endpoints, endpoint-aspects)',
    });
}

/** The default of --timeout: seconds one run of a plugin, or of a compiler, may take. */
export const DEFAULT_TIMEOUT_S = { plugin: 30, compiler: 60 } as const;

export function protocolRunOptions<T>(yargs: Argv<T>, target: 'plugin' | 'compiler', suitesDir: string) {
  return verdictOptions(
    yargs.option('suite', {
      type: 'array',
      string: true,
      default: [] as string[],
      describe: `run only these suites (file names under ${suitesDir})`,
    }),
  )
    .option('timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUT_S[target],
      describe: `seconds one run of the ${target} may take before it is killed (the case is ERROR)`,
    })
    .option('max-output', {
      type: 'number',
      default: 256,
      describe: `MiB of stdout one run of the ${target} may write before it is killed (the case is ERROR)`,
    });
}

/**
 * Runs the `kind` suites against `target` (the command as given). `prepare` lints the
 * suites, checks the target can start, and returns the kind's part of the configuration and
 * the run's plan.
 */
export async function runProtocolSuites(
  kind: 'plugin' | 'compiler',
  target: string,
  options: ProtocolRunOptions,
  prepare: (limits: PluginProcessOptions) => Promise<{ specific: Partial<RunConfig>; plan: RunPlan }>,
): Promise<Results> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `touchstone-${kind}-`));
  try {
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_S[kind];
    const maxOutput = options.maxOutput ?? 256;
    if (!(timeout > 0) || !(maxOutput > 0)) throw new HarnessError('USAGE', '--timeout and --max-output must be positive numbers');
    const limits = { timeoutMs: timeout * 1000, maxOutputBytes: maxOutput * 1024 * 1024 };
    const { specific, plan } = await prepare(limits);
    const startedAt = new Date();
    const config: RunConfig = {
      kind,
      targetUrl: target,
      embedded: false,
      tokens: {},
      cassettes: false,
      suites: listOf(options.suite),
      outDir: reportDirectory(options.out, startedAt),
      strict: options.strict === true,
      capabilities: [],
      colour: colourWanted(process.stdout),
      baselineFile: options.baseline && path.resolve(options.baseline),
      startedAt: startedAt.toISOString(),
      ...specific,
    };
    return await runConformance(config, plan, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A list option given as one value or several. */
export const listOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
