// `touchstone run`: lint the suites, start the embedded reference unless --target is
// given, check the target answers, then run the cases through Playwright and turn the
// results into an exit code (0 conforming, 1 failures, 2 usage, 3 unreachable, 4 incomplete).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import type { Suite } from '../core/suite-format.js';
import { CASSETTE_SUFFIX, RECORDED_ORIGIN, sidecarFolder } from '../cassette/cassette-format.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { readTokensFile } from '../http/tokens-file.js';
import { formatProxySummary } from '../proxy/proxy-summary.js';
import { readBaseline, unknownBaselineCases } from '../report/baseline.js';
import { createProxy, type RunningProxy } from '../proxy/proxy-server.js';
import { DEFAULT_RECORD_MODE, RECORD_MODES } from '../proxy/proxy-options.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import { DEFAULT_CASE_TIMEOUT_S, DEFAULT_REQUEST_TIMEOUT_S, parseCount, parseSeconds, type RunConfig } from '../core/run-config.js';
import { lintSuites, loadSuites } from '../suite/suite-loader.js';
import { shellWord } from '../core/shell-word.js';
import { suitePaths } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { colourWanted } from '../report/console-colour.js';
import type { Results } from '../core/results.js';
import { type CaseEnded, reportDirectory, runConformance } from '../run/conformance-process.js';
import { parseReporters } from '../report/reporters.js';
import { planRun } from '../run/run-plan.js';
import { serviceCaseFacts } from '../suite/case-facts.js';
import { judged, type VerdictArgs, verdictOptions } from './protocol-run.js';
import type { RunOptions } from './options.js';
import { plural, someOf } from '../core/plural.js';
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
import type { LastFailed } from '../report/last-failed.js';
import { closeServices, type RunningService, startReferenceLanes } from './embedded-reference.js';
import { listRecordedCases, readRecordedCases, recordedCassettes, RUN_FOLDER } from './recorded-cases.js';
import { normaliseTarget, preflight, probeTarget } from './service-target.js';

/** The cassette, within a --record/--replay folder, of the requests made outside any case. */
export const RUN_CASSETTE = `${RUN_FOLDER}/probe`;

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
        .options(SHARD_OPTION)
        .option('tokens', { type: 'string', describe: 'YAML map of role -> token for --target (values may be ${ENV_VAR})' })
        .options(selectionOptions('run', 'area folders under suites/service'))
        .options(LAST_FAILED_OPTION)
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
        .option('replay', {
          type: 'string',
          describe:
            'run against the recordings in DIR instead of a target (offline); without a selection, exactly the cases recorded there',
        })
        .option('skip-unrecorded', {
          type: 'boolean',
          describe: 'with --replay, report the selected cases DIR holds no recording of as SKIP (default: a usage error naming them)',
        })
        .option('preflight', {
          type: 'boolean',
          default: true,
          describe: 'before any case, check the target answers like the service (--no-preflight: judge it anyway)',
        }),
      'service',
    )
      .conflicts('record', 'replay')
      .example('$0 run', 'every suite against the embedded reference')
      .example('$0 run --target https://impl.example --tokens tokens.yaml', 'judge your implementation')
      .example('$0 run --only assignees/list-small-repository', 'run one case again (as a report names it)')
      .example('$0 run --last-failed', 'run again only the cases that failed in reports/latest')
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
  handler: async (argv: RunOptions & VerdictArgs & LastFailedArgs) => {
    process.exitCode = await judged('service', argv, (lastFailed) => runService(argv, lastFailed));
  },
};

const caseIds = (suites: Suite[]) => suites.flatMap((suite) => suite.cases.map((c) => `${suite.name}/${c.id}`));

interface ReplaySelection {
  selected: Suite[];
  /** The scope a replay of a folder recorded in parts is narrowed to: its cases. */
  only?: string[];
  /** --skip-unrecorded: selected cases with no recording, SKIP. */
  unrecorded: string[];
}

/**
 * A replay judges what was recorded (recorded-cases.ts). With no selection it replays exactly
 * the cases recorded in `dir`, and says so; their scope is every requirement only when a whole
 * catalogue was recorded. A selection naming cases `dir` holds no recording of is a usage error
 * listing them (exit 2), unless --skip-unrecorded reports them as SKIP. Cases the recording
 * lacks (listed, but without a cassette) run, and are ERROR by their misses: said before any case.
 */
function replaySelection(dir: string, selected: Suite[], chosen: boolean, skipUnrecorded: boolean): ReplaySelection {
  const recorded = readRecordedCases(dir);
  if (recorded.cases.size === 0)
    throw new HarnessError('USAGE', `--replay ${dir} holds no recordings (*${CASSETTE_SUFFIX}): record them with --record ${dir}`);
  let replayed = selected;
  let unrecorded: string[] = [];
  let only: string[] | undefined;
  if (chosen) {
    unrecorded = caseIds(selected).filter((id) => !recorded.cases.has(id));
    if (unrecorded.length > 0 && !skipUnrecorded)
      throw new HarnessError(
        'USAGE',
        `--replay ${dir} holds no recording of ${plural(unrecorded.length, 'selected case')}: ${someOf(unrecorded, 10)}; record ${unrecorded.length === 1 ? 'it' : 'them'} with --record ${dir}, or add --skip-unrecorded to report ${unrecorded.length === 1 ? 'it' : 'them'} as SKIP`,
      );
  } else {
    replayed = selected
      .map((suite) => ({ ...suite, cases: suite.cases.filter((c) => recorded.cases.has(`${suite.name}/${c.id}`)) }))
      .filter((suite) => suite.cases.length > 0);
    const ids = caseIds(replayed);
    if (ids.length === 0)
      throw new HarnessError('USAGE', `--replay ${dir} holds recordings of no case the suites have (recorded by another version?)`);
    if (!recorded.whole) only = ids;
    process.stdout.write(
      `touchstone: replaying the ${plural(ids.length, 'case')} recorded in ${dir} (--suite, --only or --grep replay fewer)\n`,
    );
  }
  const running = new Set(caseIds(replayed));
  const holes = recorded.holes.filter((id) => running.has(id));
  if (holes.length > 0)
    process.stderr.write(
      `touchstone: ${dir} lacks the recording of ${plural(holes.length, 'case')} (the run recording ${holes.length === 1 ? 'it' : 'them'} stopped first, or ${holes.length === 1 ? 'it was' : 'they were'} ERROR): ${holes.length === 1 ? 'it' : 'they'} will be ERROR: ${someOf(holes, 5)}\n`,
    );
  return { selected: replayed, ...(only && { only }), unrecorded };
}

/**
 * Runs the service suites (as `touchstone run`), writes the reports, and returns the results; a
 * HarnessError for what stops it. With `lastFailed` (--last-failed), only those of its cases.
 */
export async function runService(given: RunOptions, lastFailed?: LastFailed): Promise<Results> {
  const options = { ...given, target: listOf(given.target), suite: listOf(given.suite), only: listOf(given.only) };
  const services: RunningService[] = [];
  const proxies: RunningProxy[] = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-run-'));
  try {
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const worldTokens = readWorldTokens();
    const suites = loadSuites(suitePaths.service, options.suite);
    // Checked here, before anything starts: a key or pattern that selects nothing is a usage error.
    const chosen =
      options.suite.length > 0 ||
      options.only.length > 0 ||
      options.grep !== undefined ||
      options.grepInvert !== undefined ||
      lastFailed !== undefined;
    const narrowed = selectedCases(suites, options, lastFailed);
    const replay = options.replay ? replaySelection(options.replay, narrowed, chosen, options.skipUnrecorded === true) : undefined;
    const selected = replay?.selected ?? narrowed;
    if (options.skipUnrecorded && !options.replay)
      throw new HarnessError('USAGE', '--skip-unrecorded says what --replay does with cases it holds no recording of; add --replay DIR');
    if (options.recordMode && !options.record)
      throw new HarnessError(
        'USAGE',
        `--record-mode ${options.recordMode} says what --record does with a case already recorded; add --record DIR`,
      );
    const targets = options.target.map(normaliseTarget);
    const workers = workerCount(options, targets);
    const shard = shardOf(options);
    const reporters = parseReporters(listOf(options.reporter));
    const seconds = (value: number | string | undefined, flag: string, fallback: number) =>
      value === undefined ? fallback : parseSeconds(flag, value);
    // Decision: a request bound longer than the case's is allowed; the case's bound then comes first.
    const requestTimeoutS = seconds(options.requestTimeout, '--request-timeout', DEFAULT_REQUEST_TIMEOUT_S);
    const caseTimeoutS = seconds(options.caseTimeout, '--case-timeout', DEFAULT_CASE_TIMEOUT_S);
    const maxFailures = options.maxFailures === undefined ? undefined : parseCount('--max-failures', String(options.maxFailures));
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
            ...(options.record && { recordMode: options.recordMode }),
            target: upstreams[i],
            cassette: path.resolve(cassettes),
            redaction: { secrets: tokens },
            // A case's journal that a crash leaves is not its recording: the close below keeps
            // only the cassettes of cases that reached an outcome.
            ...(options.record && { crashed: 'discard' as const }),
            // A case sends each request as often as when it was recorded: one more is a request
            // the recording lacks (a hole cut into it), never the last answer again.
            exhausted: 'error',
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
      ...selectionConfig(options, lastFailed && selected),
      ...(replay?.only && { only: replay.only }),
      ...(replay && replay.unrecorded.length > 0 && { unrecorded: replay.unrecorded }),
      rerun: rerunCommand(options),
      outDir,
      reporters,
      strict: options.strict === true,
      capabilities: [...capabilities],
      requestTimeoutMs: requestTimeoutS * 1000,
      caseTimeoutMs: caseTimeoutS * 1000,
      ...(maxFailures !== undefined && { maxFailures, failureCounter: path.join(scratch, 'failures') }),
      baselineFile: options.baseline && path.resolve(options.baseline),
      startedAt: startedAt.toISOString(),
    };
    // A whole recording: every case of the catalogue (which `suites` then is).
    const everything = !chosen && !shard;
    if (options.record) listRecordedCases(path.resolve(options.record), caseIds(selected), everything);
    // A case's recording is kept as soon as the case reached an outcome, so a kill -9 later loses
    // none of it; one interrupted or ERROR leaves the cassette it had before, or none
    // (recorded-cases.ts then calls it a hole). The probe's is whole once the probe is done.
    if (options.record) for (const proxy of proxies) proxy.keep(RUN_CASSETTE);
    const keep = ({ caseEnded, outcome }: CaseEnded) => {
      if (options.record && outcome !== 'ERROR') for (const proxy of proxies) proxy.keep(caseEnded);
    };
    const results = await runConformance(config, planRun(selected, registry, serviceCaseFacts), scratch, keep);
    if (proxies.length > 0) {
      const closed = await Promise.all(proxies.splice(0).map((p) => p.close(() => false)));
      for (const { summary } of closed) process.stdout.write(formatProxySummary(summary));
      // A whole recording leaves no cassette of a case that no longer exists.
      if (options.record && everything) removeStaleCassettes(path.resolve(options.record), new Set(caseIds(suites)));
    }
    return results;
  } finally {
    // A run that ended without its results knows of no case that reached an outcome: it keeps no recording.
    await Promise.all(proxies.map((p) => p.close(() => false)));
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
function workerCount(options: { workers?: number; replay?: string }, targets: string[]): number {
  const workers = parseWorkers(options.workers, Math.max(1, targets.length));
  if (targets.length > 0 && !options.replay && workers !== targets.length)
    throw new HarnessError(
      'USAGE',
      `--workers ${workers} needs ${workers} --target URLs, one isolated state per worker (got ${targets.length})`,
    );
  return workers;
}

/** `touchstone run` against the same target as this run (tokens, recordings, strictness), for reports to add `--only <case>` to. */
function rerunCommand(options: RunOptions & { target: string[] }): string {
  const words = ['npx', 'touchstone', 'run'];
  // One case needs one worker: the first target does.
  if (options.target.length > 0) words.push('--target', options.target[0]);
  if (options.tokens) words.push('--tokens', options.tokens);
  if (options.replay) words.push('--replay', options.replay);
  if (options.strict) words.push('--strict');
  return words.map(shellWord).join(' ');
}

function removeStaleCassettes(dir: string, cases: ReadonlySet<string>): void {
  for (const name of recordedCassettes(dir)) {
    if (cases.has(name)) continue;
    const file = path.join(dir, `${name}${CASSETTE_SUFFIX}`);
    rmSync(file);
    rmSync(path.join(path.dirname(file), sidecarFolder(file).prefix), { recursive: true, force: true });
    process.stdout.write(`touchstone: removed ${path.relative(process.cwd(), file)} (no such case any more)\n`);
  }
}
