// `touchstone run`: lint the suites, start the embedded reference unless --target is
// given, check the target answers, then run the cases through Playwright and turn the
// results into an exit code (0 conforming, 1 failures, 2 usage, 3 unreachable, 4 incomplete).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import type { Suite } from '../core/suite-format.js';
import { CASSETTE_SUFFIX, RECORDED_ORIGIN, sidecarFolder, type Cassette } from '../cassette/cassette-format.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { readTokensFile } from '../http/tokens-file.js';
import { formatProxySummary } from '../proxy/proxy-summary.js';
import { readBaseline, unknownBaselineCases } from '../report/baseline.js';
import { createProxy, type RunningProxy } from '../proxy/proxy-server.js';
import { DEFAULT_RECORD_MODE, RECORD_MODES, type RecordMode } from '../proxy/proxy-options.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import {
  DEFAULT_CASE_TIMEOUT_S,
  DEFAULT_REQUEST_TIMEOUT_S,
  parseCount,
  parseSeconds,
  parseShard,
  type RunConfig,
} from '../core/run-config.js';
import { lintSuites, loadSuites, selectCases } from '../suite/suite-loader.js';
import { shellWord } from '../core/shell-word.js';
import { suitePaths } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { exitCodeOf } from '../core/exit-code.js';
import { colourWanted } from '../report/console-colour.js';
import { coverageShortfalls, parseMinCoverage } from '../core/coverage.js';
import { reportDirectory, runConformance } from '../run/conformance-process.js';
import { planRun } from '../run/run-plan.js';
import { serviceCaseFacts } from '../suite/case-facts.js';
import { verdictOptions } from './protocol-run.js';
import { closeServices, type RunningService, startReferenceLanes } from './embedded-reference.js';
import { normaliseTarget, preflight, probeTarget } from './service-target.js';

export interface RunOptions {
  /** One per worker when there are several: each worker's cases change only its own target's state. */
  target: string[];
  workers?: number;
  shard?: string;
  tokens?: string;
  suite: string[];
  only: string[];
  grep?: string;
  'grep-invert'?: string;
  'request-timeout'?: string;
  'case-timeout'?: string;
  'max-failures'?: string;
  out?: string;
  strict: boolean;
  baseline?: string;
  record?: string;
  /** With --record: what a case's existing cassette becomes (proxy-options.ts RECORD_MODES). */
  'record-mode'?: RecordMode;
  replay?: string;
  'allow-incomplete': boolean;
  'min-coverage': string[];
  /** --no-preflight: judge the target even when it does not answer like the service. */
  preflight?: boolean;
}

/** The cassette, within a --record/--replay folder, of the requests made outside any case. */
export const RUN_CASSETTE = '_run/probe';

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    verdictOptions(
      yargs
        .option('target', {
          type: 'array',
          string: true,
          default: [] as string[],
          describe: 'base URL of the implementation under test; once per worker for --workers N (each an isolated state)',
        })
        .option('workers', {
          type: 'number',
          describe:
            'run N cases at once, each worker against a target state of its own (default 1; the embedded reference starts one instance per worker)',
        })
        .option('shard', {
          type: 'string',
          describe: 'run part i of n of the selected cases (i/n), one per CI machine; join the parts with `touchstone report merge`',
        })
        .option('tokens', { type: 'string', describe: 'YAML map of role -> token for --target (values may be ${ENV_VAR})' })
        .option('suite', {
          type: 'array',
          string: true,
          default: [] as string[],
          describe: 'run only these suites (area folders under suites/service)',
        })
        .option('only', {
          type: 'array',
          string: true,
          default: [] as string[],
          describe: 'run only this case, <suite>/<case id> as reports name it (repeatable)',
        })
        .option('grep', { type: 'string', describe: 'run only the cases whose <suite>/<case id> or title matches this regular expression' })
        .option('grep-invert', {
          type: 'string',
          describe: 'leave out the cases whose <suite>/<case id> or title matches this regular expression',
        })
        .option('request-timeout', {
          type: 'string',
          describe: `seconds a request may take before it counts as unanswered, a FAIL (default ${DEFAULT_REQUEST_TIMEOUT_S})`,
        })
        .option('case-timeout', {
          type: 'string',
          describe: `seconds a case may take; a request still waiting then is a FAIL (default ${DEFAULT_CASE_TIMEOUT_S})`,
        })
        .option('max-failures', { type: 'string', describe: 'stop after N FAIL cases: the cases not yet run are SKIP, saying so' })
        .option('record', { type: 'string', describe: 'record every case into DIR/<suite>/<case>.cassette.json (through the proxy)' })
        .option('record-mode', {
          choices: RECORD_MODES,
          describe: `with --record, what a case already recorded in DIR gets (default ${DEFAULT_RECORD_MODE}: replayed and kept, only new cases recorded; new_episodes: its new requests appended; all: re-recorded; none: replayed only)`,
        })
        .option('replay', { type: 'string', describe: 'run against the recordings in DIR instead of a target (offline)' })
        .option('preflight', {
          type: 'boolean',
          default: true,
          describe: 'before any case, check the target answers like the service (--no-preflight: judge it anyway)',
        }),
    )
      .conflicts('record', 'replay')
      .example('$0 run', 'every suite against the embedded reference')
      .example('$0 run --target https://impl.example --tokens tokens.yaml', 'judge your implementation')
      .example('$0 run --only assignees/list-small-repository', 'run one case again (as a report names it)')
      .example(
        '$0 run --target http://127.0.0.1:8001 --target http://127.0.0.1:8002 --workers 2',
        'two workers, each with its own copy of the target',
      )
      .example(
        '$0 run --target http://127.0.0.1:8080 --request-timeout 5 --case-timeout 20 --max-failures 10',
        'a first look at a new implementation',
      )
      .example('$0 run --shard 2/3 --out shard-2', 'one part of three, for one CI machine; then `report merge`')
      .example(
        '$0 run --record cassettes/mine --record-mode all',
        'record every case again (by default a case already recorded is replayed)',
      )
      .example('$0 run --replay cassettes/reference', 'offline, from recordings'),
  handler: async (argv: RunOptions) => {
    process.exitCode = await run(argv);
  },
};

/**
 * A replay judges recordings, not an implementation: with none of the selected cases
 * recorded it would only report misses, so it stops before any case (exit 2). Some missing is
 * a warning naming them: those cases are ERROR, their requests misses.
 */
function checkRecordings(dir: string, selected: Suite[]): void {
  const cases = selected.flatMap((suite) => suite.cases.map((c) => `${suite.name}/${c.id}`));
  const where = (name: string) => path.join(dir, `${name}${CASSETTE_SUFFIX}`);
  const missing = cases.filter((name) => !existsSync(where(name)));
  if (missing.length === cases.length)
    throw new HarnessError(
      'USAGE',
      `--replay ${dir} holds no recording of the ${cases.length} selected case${cases.length === 1 ? '' : 's'} (such as ${where(cases[0])}): record them with --record ${dir}`,
    );
  if (missing.length > 0) {
    const named = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ` and ${missing.length - 5} more` : '');
    process.stderr.write(
      `touchstone: ${missing.length} of ${cases.length} selected cases have no recording in ${dir}, and will be ERROR: ${named}\n`,
    );
  }
}

export async function run(options: RunOptions): Promise<number> {
  const services: RunningService[] = [];
  const proxies: RunningProxy[] = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-run-'));
  try {
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const worldTokens = readWorldTokens();
    const suites = loadSuites(suitePaths.service, options.suite);
    // Checked here, before anything starts: a key or pattern that selects nothing is a usage error.
    const selected = selectCases(suites, { only: options.only ?? [], grep: options.grep, grepInvert: options['grep-invert'] });
    if (options.replay) checkRecordings(options.replay, selected);
    if (options['record-mode'] && !options.record)
      throw new HarnessError(
        'USAGE',
        `--record-mode ${options['record-mode']} says what --record does with a case already recorded; add --record DIR`,
      );
    const targets = options.target.map(normaliseTarget);
    const workers = workerCount(options, targets);
    const shard = options.shard === undefined ? undefined : parseShard(options.shard);
    const minCoverage = parseMinCoverage(options['min-coverage']);
    const seconds = (option: 'request-timeout' | 'case-timeout', fallback: number) =>
      options[option] === undefined ? fallback : parseSeconds(`--${option}`, options[option]);
    // Decision: a request bound longer than the case's is allowed; the case's bound then comes first.
    const requestTimeoutS = seconds('request-timeout', DEFAULT_REQUEST_TIMEOUT_S);
    const caseTimeoutS = seconds('case-timeout', DEFAULT_CASE_TIMEOUT_S);
    const maxFailures = options['max-failures'] === undefined ? undefined : parseCount('--max-failures', options['max-failures']);
    if (options.tokens && targets.length === 0 && !options.replay)
      throw new HarnessError('USAGE', '--tokens maps roles for --target; the embedded reference has its own tokens');
    // Replay needs the tokens only to recognise roles: any values work if each role keeps its own.
    const tokens = options.tokens
      ? readTokensFile(options.tokens, Object.keys(worldTokens))
      : targets.length > 0 && !options.replay
        ? {}
        : worldTokens;
    const problems = lintSuites(suites, {
      registry,
      schemas: loadSchemaRegistry(suitePaths.schemas),
      roles: new Set(['anonymous', ...Object.keys(worldTokens)]),
    });
    if (problems.length) throw new HarnessError('CONFIG', `the suites do not pass the lint:\n  ${problems.join('\n  ')}`);
    if (options.baseline) {
      // Against every suite: a baseline kept for the whole catalogue also serves a run of one suite.
      const catalogue = options.suite.length > 0 ? loadSuites(suitePaths.service) : suites;
      const unknown = unknownBaselineCases(
        readBaseline(options.baseline),
        new Set(catalogue.flatMap((s) => s.cases.map((c) => `${s.name}/${c.id}`))),
      );
      if (unknown.length > 0)
        throw new HarnessError('CONFIG', `${options.baseline} lists cases the suites do not have: ${unknown.join(', ')}`);
    }

    const embedded = targets.length === 0 && !options.replay;
    // Replay answers from the recordings alone, so one proxy serves every worker.
    const lanes = options.replay ? 1 : workers;
    // The contents suite reads the world's Git data: the reference builds it from the start.
    const warmGit = selected.some((suite) => suite.name === 'contents');
    if (embedded) services.push(...(await startReferenceLanes(lanes, { warmGit })));
    const upstreams = embedded ? services.map((s) => s.url) : targets;
    const cassettes = options.record ?? options.replay;
    if (cassettes) {
      // In replay the target (if named) is never contacted: the proxy has no upstream client.
      for (let i = 0; i < lanes; i++)
        proxies.push(
          await createProxy({
            mode: options.record ? 'record' : 'replay',
            ...(options.record && { recordMode: options['record-mode'] }),
            target: upstreams[i],
            cassette: path.resolve(cassettes),
            redaction: { secrets: tokens },
          }),
        );
    }
    const targetUrls = cassettes ? proxies.map((p) => p.url) : upstreams;
    // Reports never show the proxy's passing port: a curl against it reaches nothing once the run
    // ends. Recording, they show the real target, which is live (and gets the same requests).
    // A replay's recordings keep no origin (cassette-format.ts stores RECORDED_ORIGIN), so they
    // show the --target the user named for them, or RECORDED_ORIGIN itself: a curl to it
    // can never reach a wrong host, and the user puts their target's origin there (or replays
    // with --target). A `touchstone run --replay … --only <case>` line is already each case's
    // rerun; a curl of the one request stays useful against a live implementation.
    const reportedUrls = !cassettes ? undefined : options.replay ? [targets[0] ?? RECORDED_ORIGIN] : upstreams;
    const targetUrl = targetUrls[0];
    // The targets are copies of one implementation: the first speaks for them. The preflight
    // goes to it directly, never into a recording; a replay has no target to check, and the
    // embedded reference is the service (its requests would only shift what a recording of it
    // holds: the request ids it derives count the requests it has had).
    const checked =
      options.replay || embedded || options.preflight === false
        ? undefined
        : await preflight(upstreams[0], { timeoutMs: requestTimeoutS * 1000 });
    for (const warning of checked?.warnings ?? []) process.stderr.write(`touchstone: warning: ${warning}\n`);
    const capabilities = checked && !cassettes ? checked.capabilities : await probeTarget(targetUrl, cassettes ? RUN_CASSETTE : undefined);

    const startedAt = new Date();
    const outDir = reportDirectory(options.out, startedAt);
    const config: RunConfig = {
      kind: 'service',
      targetUrl,
      targetUrls,
      workers,
      colour: colourWanted(process.stdout),
      ...(shard && { shard }),
      embedded,
      tokens,
      cassettes: !!cassettes,
      ...(cassettes && {
        recordings: { mode: options.record ? ('record' as const) : ('replay' as const), folder: cassettes },
        reportedUrls,
      }),
      suites: options.suite,
      only: options.only ?? [],
      grep: options.grep,
      grepInvert: options['grep-invert'],
      rerun: rerunCommand(options),
      outDir,
      strict: options.strict,
      capabilities: [...capabilities],
      requestTimeoutMs: requestTimeoutS * 1000,
      caseTimeoutMs: caseTimeoutS * 1000,
      ...(maxFailures !== undefined && { maxFailures, failureCounter: path.join(scratch, 'failures') }),
      baselineFile: options.baseline && path.resolve(options.baseline),
      startedAt: startedAt.toISOString(),
    };
    const results = await runConformance(config, planRun(selected, registry, serviceCaseFacts), scratch);
    if (proxies.length > 0) {
      const closed = await Promise.all(proxies.splice(0).map((p) => p.close()));
      for (const { summary } of closed) process.stdout.write(formatProxySummary(summary));
      // A full recording leaves no cassette of a case that no longer exists (a cassette record
      // mode once replayed and kept counts as written).
      const everything =
        options.suite.length === 0 &&
        (options.only ?? []).length === 0 &&
        options.grep === undefined &&
        options['grep-invert'] === undefined &&
        !shard;
      if (options.record && everything)
        removeStaleCassettes(
          path.resolve(options.record),
          closed.flatMap((c) => c.written),
        );
    }

    for (const shortfall of coverageShortfalls(results, minCoverage)) process.stdout.write(`touchstone: ${shortfall}\n`);
    return exitCodeOf(results, options['allow-incomplete'], minCoverage);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    try {
      // A lane whose reference stopped during the run (its thread ended by an error) throws
      // here: the run ends with that error, its cases got no answers from a reference.
      await closeServices(services);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}

/**
 * Workers: --workers, else one per --target. Several workers against external targets need
 * a target each: cases change state, and two workers on one state would judge each other's changes.
 */
function workerCount(options: RunOptions, targets: string[]): number {
  const workers = options.workers ?? Math.max(1, targets.length);
  if (!Number.isInteger(workers) || workers < 1)
    throw new HarnessError('USAGE', `--workers ${options.workers} is not a positive whole number`);
  if (targets.length > 0 && !options.replay && workers !== targets.length)
    throw new HarnessError(
      'USAGE',
      `--workers ${workers} needs ${workers} --target URLs, one isolated state per worker (got ${targets.length})`,
    );
  return workers;
}

/** `touchstone run` against the same target as this run (tokens, recordings, strictness), for reports to add `--only <case>` to. */
function rerunCommand(options: RunOptions): string {
  const words = ['npx', 'touchstone', 'run'];
  // One case needs one worker: the first target does.
  if (options.target.length > 0) words.push('--target', options.target[0]);
  if (options.tokens) words.push('--tokens', options.tokens);
  if (options.replay) words.push('--replay', options.replay);
  if (options.strict) words.push('--strict');
  return words.map(shellWord).join(' ');
}

function removeStaleCassettes(dir: string, written: Cassette[]): void {
  const kept = new Set(written.map((c) => path.join(dir, `${c.name}${CASSETTE_SUFFIX}`)));
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (!file.endsWith(CASSETTE_SUFFIX) || kept.has(file)) continue;
    rmSync(file);
    rmSync(path.join(path.dirname(file), sidecarFolder(file).prefix), { recursive: true, force: true });
    process.stdout.write(`touchstone: removed ${path.relative(process.cwd(), file)} (no such case any more)\n`);
  }
}
