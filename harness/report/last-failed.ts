// --last-failed (`touchstone run|plugin|compiler`), as Playwright's flag: which cases failed in
// the latest report, reports/latest (latest-link.ts), read from its results.json. The command
// then runs only those (harness/cli/case-selection.ts narrows its selection to them).
//
// Decisions where the issue is silent:
// - The latest report is reports/latest, whatever --out the new run names (Playwright reads
//   its own last run the same way); a run into reports/ moves the link, so a second
//   --last-failed reruns what still failed in the first.
// - FAIL and ERROR are run again: the outcomes that make the run fail (exit 1) or leave it
//   incomplete through an error (exit 4). Not WARN: the case ran to its end and a broken
//   SHOULD or MAY changes no exit code (under --strict a broken SHOULD is FAIL, and so run
//   again), as Playwright reruns failed tests only. Not XFAIL: the baseline expected that
//   failure (a listed case that passes now is FAIL, and so run again). Not SKIP, not even the
//   cases --max-failures left unrun, which Playwright's flag would take as "did not run": run
//   without --last-failed to reach them.
// - The report must be of the command's kind: a plugin run's cases are no service cases.
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { Outcome, RunKind } from '../core/results.js';
import { existingLatestLink } from './latest-link.js';
import { readResults } from './read-results.js';

/** The outcomes --last-failed runs again. */
export const LAST_FAILED_OUTCOMES: readonly Outcome[] = ['FAIL', 'ERROR'];

/** The command that runs each kind's suites. */
const COMMAND_OF: Record<RunKind, string> = { service: 'run', plugin: 'plugin', compiler: 'compiler' };

export interface LastFailed {
  /** The report as messages name it: `reports/latest (2025-11-22T12-00-00Z)`. */
  report: string;
  /** Its cases that failed (LAST_FAILED_OUTCOMES), `<suite>/<case id>`, in the order of the run. */
  cases: string[];
}

/** The cases of `kind` that failed in reports/latest of `cwd`; no such report, or one of another kind, is a usage error. */
export function readLastFailed(kind: RunKind, cwd = process.cwd()): LastFailed {
  const command = `touchstone ${COMMAND_OF[kind]}`;
  const latest = existingLatestLink(`--last-failed reads the latest report: run ${command} without it first`, cwd);
  const named = path.relative(cwd, latest);
  const report = lstatSync(latest).isSymbolicLink() ? `${named} (${readlinkSync(latest)})` : named;
  const results = readResults(latest);
  if (results.kind !== kind)
    throw new HarnessError(
      'USAGE',
      `${report} is the report of a ${results.kind} run (touchstone ${COMMAND_OF[results.kind]}): ${command} --last-failed runs again the cases that failed in a ${kind} run`,
    );
  return { report, cases: results.cases.filter((c) => LAST_FAILED_OUTCOMES.includes(c.outcome)).map((c) => c.id) };
}
