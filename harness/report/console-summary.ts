// The one-screen summary printed at the end of a run.
import { OUTCOMES, type Results } from '../core/results.js';
import { gapReasons, verdictHeadline } from './verdict-reasons.js';
import { paint } from './console-colour.js';
import { describeTarget } from './target-description.js';

const MAX_LISTED = 15;

/** `files`: the report files written into `outDir` (writeReports returns them). */
export function formatSummary(results: Results, outDir: string, files: readonly string[], colour = false): string {
  const verdict = paint(colour, results.verdict, results.verdict.toUpperCase());
  const lines = ['', `touchstone: ${verdict} (${describeTarget(results)})`, `  ${verdictHeadline(results)}`];
  lines.push(`  ${OUTCOMES.map((o) => `${o} ${results.summary[o]}`).join('  ')}  of ${results.summary.total}`);
  const notPassing = results.cases.filter((c) => c.outcome !== 'PASS' && c.outcome !== 'SKIP');
  for (const c of notPassing.slice(0, MAX_LISTED)) {
    // A case with several broken checks (an auth matrix's rows) gets a line for each.
    const [first = '', ...more] = c.failures ? (c.message ?? '').split('\n') : [(c.message ?? '').split('\n')[0]];
    lines.push(`  ${paint(colour, c.outcome, c.outcome.padEnd(5))} ${c.id}: ${first.slice(0, 160)}`);
    for (const line of more) lines.push(`         ${line.slice(0, 160)}`);
  }
  if (notPassing.length > MAX_LISTED) lines.push(`  … ${notPassing.length - MAX_LISTED} more in the report`);
  for (const reason of gapReasons(results)) lines.push(`  ${reason}`);
  const untested = results.requirements.filter((r) => r.status === 'UNTESTED').length;
  lines.push(`  requirements: ${results.requirements.length}, untested: ${untested}`);
  lines.push(`  reports: ${outDir}/${files.length === 1 ? files[0] : `{${files.join(',')}}`}`, '');
  return lines.join('\n');
}
