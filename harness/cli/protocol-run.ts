// What `touchstone plugin` and `touchstone compiler` share: their common options, the
// checks of those options, the run configuration, and turning the results (or a harness
// error) into an exit code: 0 conforming, 1 failures, 2 usage, 3 the target cannot start, 4 incomplete.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, HarnessError } from '../core/errors.js';
import { shellWord } from '../core/shell-word.js';
import type { PluginProcessOptions } from '../plugin/plugin-process.js';
import { SAVED_REQUESTS_DIR } from '../plugin/saved-request.js';
import { removeEmptySandboxFolders } from '../run/compiler-kind.js';
import type { RunConfig } from '../core/run-config.js';
import { exitCodeOf } from '../core/exit-code.js';
import { colourWanted } from '../report/console-colour.js';
import { coverageKindsOf, coverageShortfalls, parseMinCoverage } from '../core/coverage.js';
import { reportDirectory, runConformance } from '../run/conformance-process.js';
import { planRun } from '../run/run-plan.js';
import { loadRequirementRegistry, type RequirementRegistry, type RunKind } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { protocolCaseFacts } from '../suite/case-facts.js';
import { parseReporters, REPORTER_OPTION_DESCRIPTION } from '../report/reporters.js';
import type { Results } from '../core/results.js';
import type { ProtocolRunOptions } from './options.js';
import { type LastFailed, readLastFailed } from '../report/last-failed.js';
import {
  LAST_FAILED_OPTION,
  type LastFailedArgs,
  selectedCases,
  listOf,
  parseWorkers,
  SHARD_OPTION,
  selectionConfig,
  selectionOptions,
  shardOf,
} from './case-selection.js';

/** The flags that turn results into an exit code: only the command line has one. */
export interface VerdictArgs {
  allowIncomplete: boolean;
  minCoverage: string[];
}

/**
 * The exit code of a command that runs `kind`'s suites: `work`'s results judged by exitCodeOf,
 * with each coverage shortfall said; a HarnessError said on stderr, its code the exit code.
 * --min-coverage is checked, and --last-failed's report read, before the work starts.
 *
 * Decision: with --last-failed, a latest report in which no case failed runs nothing, says so
 * and exits 0: nothing is failing to run again. (Playwright's flag then finds no tests, an
 * error unless --pass-with-no-tests; here the latest run was read, and its verdict stands.)
 */
export async function judged(
  kind: RunKind,
  args: VerdictArgs & LastFailedArgs,
  work: (lastFailed: LastFailed | undefined) => Promise<Results>,
): Promise<number> {
  try {
    const minCoverage = parseMinCoverage(args.minCoverage, kind);
    const lastFailed = args.lastFailed ? readLastFailed(kind) : undefined;
    if (lastFailed?.cases.length === 0) {
      process.stdout.write(`touchstone: --last-failed: no case failed in ${lastFailed.report}: nothing to run\n`);
      return EXIT.conforming;
    }
    const results = await work(lastFailed);
    for (const shortfall of coverageShortfalls(results, minCoverage)) process.stdout.write(`touchstone: ${shortfall}\n`);
    return exitCodeOf(results, args.allowIncomplete, minCoverage);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  }
}

/**
 * How every conformance run (run, plugin, compiler) turns its results into a verdict and an
 * exit code. Each kind is offered what applies to it: only a service run has endpoints, and
 * only a service case can go unchecked for want of a token or a capability.
 */
export function verdictOptions<T>(yargs: Argv<T>, kind: RunKind) {
  const coverageKinds = coverageKindsOf(kind);
  return yargs
    .option('out', { type: 'string', describe: 'report directory (default reports/<timestamp>)' })
    .option('reporter', { type: 'array', string: true, describe: REPORTER_OPTION_DESCRIPTION })
    .option('strict', { type: 'boolean', default: false, describe: 'SHOULD failures count as FAIL' })
    .option('allow-incomplete', {
      type: 'boolean',
      default: false,
      describe: `exit 0 when nothing failed even though MUST requirements went unchecked (${kind === 'service' ? 'missing tokens or capabilities' : 'no case of the run checks them'})`,
    })
    .option('baseline', { type: 'string', describe: 'known failures and known-flaky cases (YAML; see docs/reports-and-baselines.md)' })
    .option('min-coverage', {
      type: 'array',
      string: true,
      default: [] as string[],
      describe:
        coverageKinds.length === 1
          ? `exit 4 when coverage of the ${coverageKinds[0]} in scope is below PERCENT (or ${coverageKinds[0]}=PERCENT)`
          : `exit 4 when coverage is below PERCENT: for every kind, or KIND=PERCENT (${coverageKinds.join(', ')})`,
    });
}

/** The default of --timeout: seconds one run of a plugin, or of a compiler, may take. */
export const DEFAULT_TIMEOUT_S = { plugin: 30, compiler: 60 } as const;

export function protocolRunOptions<T>(yargs: Argv<T>, target: 'plugin' | 'compiler', suitesDir: string) {
  return verdictOptions(
    yargs
      // Decision: one worker unless asked: each case starts the target on its own, so workers
      // need no state of their own, but a slow target judged under the load of its own copies
      // could time out where it would not alone.
      .option('workers', {
        type: 'number',
        describe: `run N cases at once, each starting the ${target} on its own (default 1; --timeout then bounds each start under that load)`,
      })
      .options(SHARD_OPTION)
      .options(selectionOptions('run', `file names under ${suitesDir}`))
      .options(LAST_FAILED_OPTION),
    target,
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
 * `touchstone plugin|compiler` against the same target as this run (`target`: its own flags),
 * for reports to add `--only <case>` to. --strict is kept, since it changes what fails.
 */
export function protocolRerun(kind: 'plugin' | 'compiler', options: ProtocolRunOptions, target: string[]): string {
  return ['npx', 'touchstone', kind, ...target, ...(options.strict ? ['--strict'] : [])].map(shellWord).join(' ');
}

/** What a kind's command prepares before its cases run (see runProtocolSuites). */
export interface ProtocolRun {
  /** The kind's suites that --suite names, loaded and linted. */
  suites: { name: string; cases: readonly ProtocolCase[] }[];
  /** Checks the target can start and gives the kind's part of the configuration; called once the selection stands. */
  start(): Promise<Partial<RunConfig>>;
}

interface ProtocolCase {
  id: string;
  title: string;
  requirements: string[];
}

/**
 * Runs the `kind` suites against `target` (the command as given). `prepare` loads and lints
 * the kind's suites; the cases the options select (of `lastFailed`'s, with --last-failed) are
 * then planned, and the target checked.
 * Usage errors (options, selection) come before the target is started at all.
 */
export async function runProtocolSuites(
  kind: 'plugin' | 'compiler',
  target: string,
  options: ProtocolRunOptions,
  prepare: (limits: PluginProcessOptions, registry: RequirementRegistry) => ProtocolRun,
  lastFailed?: LastFailed,
): Promise<Results> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `touchstone-${kind}-`));
  try {
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_S[kind];
    const maxOutput = options.maxOutput ?? 256;
    if (!(timeout > 0) || !(maxOutput > 0)) throw new HarnessError('USAGE', '--timeout and --max-output must be positive numbers');
    const workers = parseWorkers(options.workers, 1);
    const shard = shardOf(options);
    const limits = { timeoutMs: timeout * 1000, maxOutputBytes: maxOutput * 1024 * 1024 };
    const reporters = parseReporters(listOf(options.reporter));
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const run = prepare(limits, registry);
    const chosen = selectedCases(run.suites, options, lastFailed);
    const plan = planRun(chosen, registry, protocolCaseFacts);
    const specific = await run.start();
    const startedAt = new Date();
    const config: RunConfig = {
      kind,
      targetUrl: target,
      workers,
      ...(shard && { shard }),
      embedded: false,
      tokens: {},
      cassettes: false,
      ...selectionConfig(options, lastFailed && chosen),
      outDir: reportDirectory(options.out, startedAt),
      reporters,
      strict: options.strict === true,
      capabilities: [],
      colour: colourWanted(process.stdout),
      baselineFile: options.baseline && path.resolve(options.baseline),
      startedAt: startedAt.toISOString(),
      ...specific,
    };
    // The requests an earlier run saved in the same folder must not outlive it, as its repro.sh does not.
    if (kind === 'plugin') rmSync(path.join(config.outDir, SAVED_REQUESTS_DIR), { recursive: true, force: true });
    const results = await runConformance(config, plan, scratch);
    if (kind === 'compiler') removeEmptySandboxFolders(config.outDir);
    return results;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
