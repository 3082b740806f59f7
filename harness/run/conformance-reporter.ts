// Playwright reporter of every conformance run (service, plugin, compiler): collects each case's
// outcome (handed over in an annotation, case-test.ts), takes its facts from the run's
// plan, prints progress and a one-screen summary, and writes results.json and the reports
// --reporter chose (report/reporters.ts).
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { requirementsFor } from '../core/requirement-registry.js';
import { readRunConfig, type PluginGiven, type RunConfig } from '../core/run-config.js';
import { packageVersion } from '../../lib/project-files.js';
import { fingerprintOf } from '../core/fingerprint.js';
import { applyBaseline, readBaseline } from '../report/baseline.js';
import { buildResults, caseResult, requirementsInScope } from '../report/build-results.js';
import { formatSummary } from '../report/console-summary.js';
import { paint } from '../report/console-colour.js';
import { formatDuration } from '../report/duration-format.js';
import type { CaseFacts, CaseOutcome, CaseResult, Results } from '../core/results.js';
import { describeTarget } from '../report/target-description.js';
import { writeReports } from '../report/write-reports.js';
import { parseReporters } from '../report/reporters.js';
import { maxFailuresMessage } from './max-failures.js';
import { caseIdOf, handedOverOutcome } from './case-test.js';
import type { CaseEnded } from './conformance-process.js';
import { readRunPlan, registryOf, type RunPlan } from './run-plan.js';
import { plural } from '../core/plural.js';

function readOutcome(result: TestResult): CaseOutcome {
  const handed = handedOverOutcome(result.annotations);
  if (handed) return handed;
  // No outcome means the test never finished: the run was stopped (Ctrl-C), a timeout or a crash of the harness.
  const stopped = result.status === 'interrupted' || (result.status === 'skipped' && !result.error);
  const reason =
    result.error?.message?.split('\n')[0] ??
    (stopped ? 'the run was stopped before this case reached an outcome' : `the test ended ${result.status} without an outcome`);
  return { outcome: 'ERROR', message: reason };
}

export default class ConformanceReporter implements Reporter {
  private readonly config: RunConfig = readRunConfig();
  private readonly plan: RunPlan = readRunPlan(this.config);
  /** Each case's facts by its id. */
  private readonly facts = new Map<string, CaseFacts>(this.plan.cases.map((c) => [c.facts.id, c.facts]));
  private readonly cases: CaseResult[] = [];
  /** Each planned case's place in the catalogue: parallel workers finish in any order, reports list cases in this one. */
  private readonly order = new Map<string, number>();
  private total = 0;
  /** Every requirement the planned cases cite, whether or not they get to run. */
  private readonly cited = new Set<string>();

  /** What results.json says was judged: the proxy's passing port is never named (run.ts, reportedUrls). */
  private readonly target: Results['target'] = {
    url: this.config.reportedUrls?.[0] ?? this.config.targetUrl,
    embedded: this.config.embedded,
    ...(this.config.recordings && { recordings: this.config.recordings }),
    ...(this.config.plugin && pluginGiven(this.config.plugin)),
  };
  private readonly colour = this.config.colour === true;
  private readonly begun = Date.now();

  /** "  (~1 min 5 s left)" from the pace so far, once there is one: runs of many cases say when they will end. */
  private timeLeft(): string {
    const done = this.cases.length;
    const left = this.total - done;
    if (done < 5 || left === 0) return '';
    return `  (~${formatDuration(((Date.now() - this.begun) / done) * left)} left)`;
  }

  printsToStdio() {
    return true;
  }

  onBegin(_config: unknown, suite: { allTests(): TestCase[] }) {
    const planned = suite.allTests();
    this.total = planned.length;
    planned.forEach((test, i) => this.order.set(caseIdOf(test), i));
    for (const test of planned) for (const id of this.facts.get(caseIdOf(test))?.requirements ?? []) this.cited.add(id);
    const { config } = this;
    const urls = config.reportedUrls ?? config.targetUrls ?? [config.targetUrl];
    // Every worker's URL; that it is the embedded reference is said among the how, not twice.
    const target = describeTarget({ kind: config.kind, target: { ...this.target, url: urls.join(', '), embedded: false } });
    const how = [
      config.embedded && (urls.length > 1 ? `${urls.length} embedded references` : 'embedded reference'),
      (config.workers ?? 1) > 1 && `${config.workers} workers`,
      config.shard && `shard ${config.shard.current}/${config.shard.total}`,
    ].filter(Boolean);
    process.stdout.write(
      `touchstone: running ${plural(this.total, 'case')} against ${target}${how.length > 0 ? ` (${how.join(', ')})` : ''}\n`,
    );
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const outcome = readOutcome(result);
    const id = caseIdOf(test);
    const facts = this.facts.get(id)!;
    this.cases.push(caseResult(facts, outcome, { started_at: result.startTime.toISOString(), duration_ms: result.duration }));
    // The CLI hears of it at once (conformance-process.ts): a recording keeps the case's cassette now.
    process.send?.({ caseEnded: id, outcome: outcome.outcome } satisfies CaseEnded);
    const line = `${String(this.cases.length).padStart(4)}/${this.total} ${paint(this.colour, outcome.outcome, outcome.outcome.padEnd(5))} ${id}${this.timeLeft()}`;
    const message = (outcome.message ?? '').split('\n').map((text) => `             ${text}\n`);
    process.stdout.write(outcome.outcome === 'PASS' ? `${line}\n` : `${line}\n${message.join('')}`);
  }

  /**
   * An error here is said, not thrown: Playwright's runner, given an error from a reporter's
   * onEnd, spun at full CPU and never exited (seen with --out /proc/x, whose folder cannot be
   * made). The CLI then ends the run: it finds no results.json and points at this message.
   */
  onEnd(result: FullResult) {
    try {
      this.finish(result);
    } catch (error) {
      process.stderr.write(`touchstone: the run's reports could not be written: ${(error as Error).stack ?? String(error)}\n`);
    }
  }

  private finish(result: FullResult) {
    const registry = registryOf(this.plan);
    const { config } = this;
    let cases = this.cases.sort((a, b) => this.order.get(a.id)! - this.order.get(b.id)!);
    // Entries expire by the day the run started (UTC).
    if (config.baselineFile)
      cases = applyBaseline(cases, readBaseline(config.baselineFile), config.baselineFile, config.startedAt.slice(0, 10));
    if (result.status === 'interrupted' || result.status === 'timedout') {
      process.stdout.write(`touchstone: the run was ${result.status}; reports cover ${cases.length} of ${this.total} cases\n`);
    }
    if (config.maxFailures !== undefined) {
      const stopped = cases.filter((c) => c.message === maxFailuresMessage(config.maxFailures!)).length;
      if (stopped > 0)
        process.stdout.write(
          `touchstone: stopped early: --max-failures ${config.maxFailures} reached, ${stopped} of ${this.total} cases not run (SKIP)\n`,
        );
    }
    // A shard's scope is what its cases cite; `report merge` judges the shards together against the whole.
    const inScope = requirementsInScope(requirementsFor(registry, config.kind), config, this.cited);
    const results = buildResults(cases, inScope, {
      kind: this.config.kind,
      suites: this.config.suites,
      only: this.config.only,
      grep: this.config.grep,
      grepInvert: this.config.grepInvert,
      shard: config.shard && `${config.shard.current}/${config.shard.total}`,
      rerun: this.config.rerun,
      // A service target without reset: every case ran on what the ones before it left.
      sharedState: config.kind === 'service' && !config.capabilities.includes('control.reset'),
      target: this.target,
      startedAt: new Date(this.config.startedAt),
      finishedAt: new Date(),
      strict: this.config.strict,
      version: packageVersion(),
      fingerprint: fingerprintOf({ ...config, roles: Object.keys(config.tokens) }),
    });
    const written = writeReports(this.config.outDir, results, parseReporters(config.reporters));
    process.stdout.write(formatSummary(results, this.config.outDir, written, this.colour));
  }
}

/** results.json's target.plugin: what the plugin was given besides the cases, when anything. */
function pluginGiven({ parameter, own }: PluginGiven): Pick<Results['target'], 'plugin'> | undefined {
  if (parameter === undefined && !own) return undefined;
  return { plugin: { ...(parameter !== undefined && { parameter }), ...(own && { proto: own.files }) } };
}
