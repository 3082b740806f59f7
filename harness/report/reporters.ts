// Which reports a run writes (--reporter): the names users give, what each writes, and the
// default. Read by every command that writes reports (run, plugin, compiler, report merge).
//
// Decisions:
// - results.json is always written, whatever --reporter says: it is the run's record, the one
//   file the CLI reads the verdict back from, and what `report merge`, `report compare`,
//   `report open` and `baseline update` read. `json` may still be named (it changes nothing),
//   so a list copied from another tool's habits is not refused. repro.sh goes with it: it is
//   the record of how to run each case that did not pass again.
// - The default is every file (html, junit, markdown, ctrf), as before --reporter existed;
//   `github` is never on by default: annotations are for GitHub Actions' log only.
// - The console output (a line per case, then the summary) is not a reporter: every run
//   prints it, so there are no list/line/dot names to pick between.
// - A report file of a reporter not chosen is removed from the folder: left from an earlier
//   run into the same --out, it would describe another run than the one beside it.
import { HarnessError } from '../core/errors.js';
import { closestName } from '../core/did-you-mean.js';

export const REPORT_FILES = {
  results: 'results.json',
  junit: 'junit.xml',
  html: 'report.html',
  summary: 'summary.md',
  ctrf: 'ctrf.json',
} as const;

/** Each reporter's name and what it writes. */
export const REPORTERS = {
  html: `${REPORT_FILES.html}, the report to read in a browser`,
  junit: `${REPORT_FILES.junit}, for CI test tabs`,
  json: `${REPORT_FILES.results}, the record (always written)`,
  markdown: `${REPORT_FILES.summary}, a summary for a pull-request comment`,
  ctrf: `${REPORT_FILES.ctrf}, the Common Test Report Format`,
  github: 'GitHub Actions annotations at each failing case, and the summary appended to $GITHUB_STEP_SUMMARY',
} as const;

export type ReporterName = keyof typeof REPORTERS;
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['html', 'junit', 'json', 'markdown', 'ctrf'];

/** --reporter's describe, the same for every command that has it. */
export const REPORTER_OPTION_DESCRIPTION = `reports to write, repeatable or comma-separated: ${REPORTER_NAMES.join(', ')} (default: all but github; ${REPORT_FILES.results} is always written)`;

/** The reporters named by --reporter (each value may list several, comma-separated); none named, the default. */
export function parseReporters(given: readonly string[] | undefined): ReporterName[] {
  const names = (given ?? []).flatMap((value) => String(value).split(',')).map((name) => name.trim());
  if (names.length === 0) return [...DEFAULT_REPORTERS];
  for (const name of names) {
    if ((REPORTER_NAMES as string[]).includes(name)) continue;
    const near = name === '' ? undefined : closestName(name, REPORTER_NAMES);
    throw new HarnessError(
      'USAGE',
      `--reporter ${name === '' ? "''" : name} is not a reporter${near ? ` (did you mean ${near}?)` : ''}; known: ${REPORTER_NAMES.join(', ')}`,
    );
  }
  return [...new Set(names as ReporterName[])];
}
