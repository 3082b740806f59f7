// --reporter github: what GitHub Actions shows of a run without anyone opening a report.
// - Annotations: a workflow command per case that did not pass, on stdout (where the runner
//   reads them), at the case's entry in its suite file (or naming it: the Decision below):
//   `::error` for FAIL and ERROR, `::warning` for WARN; one more for a verdict other than
//   conforming (`::error` for non-conforming, `::warning` for incomplete). SKIP and XFAIL get
//   none: the summary lists them.
// - The job summary: summary.md's Markdown (the one renderer, markdown-summary.ts), appended to
//   the file $GITHUB_STEP_SUMMARY names (appended, never overwritten: other steps of the job
//   write there too). Not set (outside Actions), nothing is written.
//
// Workflow-command syntax (GitHub's "Workflow commands for GitHub Actions", and
// actions/toolkit's command.ts): `::error file={name},line={line},title={title}::{message}`.
// The message escapes %, \r and \n (%25, %0D, %0A); a property also : and , (%3A, %2C). A
// message a target wrote can thus never end the command early nor start another one.
//
// Decision: an annotation names a suite file only where GitHub can show it, a file of the
// repository the job checked out: inside $GITHUB_WORKSPACE and not under a node_modules folder
// there (touchstone installed as a package, whose files no commit holds), given relative to the
// workspace, which is what GitHub resolves it against. Any other suite file (the package's, or
// touchstone installed elsewhere) is named in the message instead, as the package's file
// (`touchstone/suites/…yaml:LINE`), without `file=`: GitHub shows such an annotation, unattached,
// in the run's summary. Outside Actions ($GITHUB_WORKSPACE unset) the current folder stands in
// for the workspace, by the same rule, as before: a run from the repository's root prints what
// Actions would show.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { CaseResult, CaseSource, Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import { verdictHeadline } from './verdict-reasons.js';

/** A workflow command's message: %, CR and LF escaped. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: as a message, and : and , too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

type Level = 'error' | 'warning';

function command(level: Level, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

const LEVEL_OF: Partial<Record<CaseResult['outcome'], Level>> = { FAIL: 'error', ERROR: 'error', WARN: 'warning' };

/**
 * The case's suite file as GitHub names it (relative to `workspace`, / separated), when it is a
 * file of the workspace's own: inside it, and not in a node_modules folder there.
 */
function fileIn(workspace: string, packageRoot: string, source: CaseSource): string | undefined {
  const relative = path.relative(workspace, path.join(packageRoot, source.file));
  const parts = relative.split(path.sep);
  if (path.isAbsolute(relative) || parts[0] === '..' || parts.includes('node_modules')) return undefined;
  return parts.join('/');
}

/**
 * Every annotation of the run, one workflow command a line. `packageRoot` is the folder the
 * cases' `source` files are relative to: touchstone's own (a test gives another).
 */
export function renderGithubAnnotations(results: Results, workspace: string, packageRoot: string = PROJECT_ROOT): string {
  const lines: string[] = [];
  for (const c of results.cases) {
    const level = LEVEL_OF[c.outcome];
    if (!level) continue;
    const file = c.source && fileIn(workspace, packageRoot, c.source);
    const named = c.source && !file && `suite file: touchstone/${c.source.file}:${c.source.line}`;
    const message = [c.message ?? c.outcome, c.rerun && `run again: ${c.rerun}`, named].filter(Boolean).join('\n');
    lines.push(command(level, { file, line: file && c.source?.line, title: `${c.outcome} ${c.id}: ${c.title}` }, message));
  }
  if (results.verdict !== 'conforming')
    lines.push(
      command(
        results.verdict === 'non-conforming' ? 'error' : 'warning',
        { title: `touchstone: ${results.verdict}` },
        verdictHeadline(results),
      ),
    );
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * Writes the annotations to `out` and appends the summary to $GITHUB_STEP_SUMMARY when set. A
 * summary that cannot be written is said on stderr, and the run goes on: its reports and its
 * verdict matter more than the summary page.
 */
export function writeGithubReport(
  results: Results,
  env: NodeJS.ProcessEnv = process.env,
  out: NodeJS.WritableStream = process.stdout,
): void {
  out.write(renderGithubAnnotations(results, env.GITHUB_WORKSPACE || process.cwd()));
  const summaryFile = env.GITHUB_STEP_SUMMARY;
  if (!summaryFile) return;
  try {
    appendFileSync(summaryFile, `${renderMarkdownSummary(results)}\n`);
  } catch (error) {
    process.stderr.write(`touchstone: cannot append the summary to $GITHUB_STEP_SUMMARY (${summaryFile}): ${(error as Error).message}\n`);
  }
}
