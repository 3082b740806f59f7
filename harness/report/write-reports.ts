// Writes the report files of a run. results.json is validated against its schema
// first: a harness bug must not produce a document CI systems then trust.
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { HarnessError } from '../core/errors.js';
import { compileSchemaFile, createAjv } from '../core/validated-file.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';
import { renderCtrf } from './ctrf-report.js';
import { renderHtmlReport } from './html-report.js';
import { renderJunit } from './junit-report.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import { RECORDED_ORIGIN, resultsSchemaFile, type Results } from '../core/results.js';
import { projectPath } from '../../lib/project-files.js';
import { plural } from '../core/plural.js';
import { whyNotReached } from '../core/case-outcome.js';
import { DEFAULT_REPORTERS, REPORT_FILES, type ReporterName } from './reporters.js';
import { writeGithubReport } from './github-report.js';
import { makeDirectory } from '../../lib/make-directory.js';

export { REPORT_FILES };
/** Written beside the reports when a case did not pass: each such case's command to run it again. */
export const REPRO_FILE = 'repro.sh';

/** A shell script that runs each case that did not pass again, in the order of the run, one after the other. */
export function renderReproScript(results: Results): string | undefined {
  const again = results.cases.filter((c) => c.rerun !== undefined);
  if (again.length === 0) return undefined;
  const lines = [
    '#!/bin/sh',
    `# The ${plural(again.length, 'case')} of this run that did not pass, each run again against the same target.`,
  ];
  const tokensFrom = results.target.embedded ? 'of the world (suites/world.yaml)' : 'from your tokens file';
  for (const c of again) {
    lines.push('', `# ${c.id}: ${c.outcome}${c.failure ? ` (${c.failure.requirement})` : ''}`, c.rerun!);
    if (c.not_reached) lines.push(`#   not reached: ${whyNotReached(c.not_reached)}`);
    // Each broken check's request alone, as curl (set TOKEN to the role's token first).
    for (const failure of c.failures ?? (c.failure ? [c.failure] : [])) {
      if (!failure.reproduce) continue;
      lines.push(`#   ${failure.role ? `as ${failure.role}: ` : ''}expected ${failure.expected}, got ${failure.actual}`);
      if (failure.role && failure.reproduce.includes('$TOKEN')) lines.push(`#   TOKEN: the \`${failure.role}\` token ${tokensFrom}`);
      if (failure.reproduce.includes(RECORDED_ORIGIN))
        lines.push(`#   ${RECORDED_ORIGIN}: the recordings keep no origin; put the base URL of the implementation they recorded there`);
      lines.push(...failure.reproduce.split('\n').map((line) => `#   ${line}`));
    }
  }
  return `${lines.join('\n')}\n`;
}

export function validateResults(results: Results): void {
  const validate = compileSchemaFile(createAjv(), projectPath(resultsSchemaFile.path));
  if (!validate(results))
    throw new HarnessError('CONFIG', `results.json does not match its schema: ${describeSchemaErrors(validate.errors)}`);
}

/** The report files each reporter writes (results.json and repro.sh are always written). */
const RENDERERS: [ReporterName, string, (results: Results) => string][] = [
  ['junit', REPORT_FILES.junit, renderJunit],
  ['html', REPORT_FILES.html, renderHtmlReport],
  ['markdown', REPORT_FILES.summary, renderMarkdownSummary],
  ['ctrf', REPORT_FILES.ctrf, renderCtrf],
];

/**
 * Writes the reports `reporters` name (reporters.ts says what is always written) into `outDir`,
 * and returns the names of the files written, results.json first.
 */
export function writeReports(outDir: string, results: Results, reporters: readonly ReporterName[] = DEFAULT_REPORTERS): string[] {
  validateResults(results);
  makeDirectory(outDir);
  const written: string[] = [REPORT_FILES.results];
  for (const [name, file, render] of RENDERERS) {
    // A report not chosen, left by an earlier run in the same folder, must not outlive it either.
    if (reporters.includes(name)) {
      writeFileAtomic(path.join(outDir, file), render(results));
      written.push(file);
    } else rmSync(path.join(outDir, file), { force: true });
  }
  // A repro.sh of an earlier run in the same folder must not outlive it.
  const repro = renderReproScript(results);
  if (repro === undefined) rmSync(path.join(outDir, REPRO_FILE), { force: true });
  else {
    writeFileAtomic(path.join(outDir, REPRO_FILE), repro);
    chmodSync(path.join(outDir, REPRO_FILE), 0o755);
    written.push(REPRO_FILE);
  }
  // Last: its presence tells the CLI the run completed.
  writeFileAtomic(path.join(outDir, REPORT_FILES.results), `${JSON.stringify(results, null, 2)}\n`);
  if (reporters.includes('github')) writeGithubReport(results);
  return written;
}
