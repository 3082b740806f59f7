// The kill matrix as a person reads it in a terminal: one line per fault as it finishes
// (which cases caught it, or that none did) and per variation (judged conforming, or which
// cases rejected it), then what is wrong with the suites, if anything, and the totals:
// sensitivity and specificity side by side.
import { isComplete, misattributedCount, type FaultResult, type KillMatrix, type VariantResult } from './kill-matrix.js';
import { someOf } from '../core/plural.js';

const MAX_NAMED = 3;

function named(ids: string[]): string {
  return someOf(ids, MAX_NAMED);
}

export function formatFaultLine(result: FaultResult): string {
  const head = `  ${result.caught_by.length > 0 ? 'caught' : 'MISSED'}  ${result.id.padEnd(44)}`;
  if (result.caught_by.length > 0) return `${head} by ${named(result.caught_by)}`;
  if (result.runs.length === 0) return `${head} no case cites ${result.breaks.join(', ')}`;
  return `${head} ${result.runs.map((r) => `${r.case} ${r.outcome}${r.requirement ? ` (${r.requirement})` : ''}`).join('; ')}`;
}

export function formatVariantLine(result: VariantResult): string {
  const head = `  ${result.rejected_by.length === 0 ? 'allowed' : 'REJECTED'} ${result.id.padEnd(44)}`;
  if (result.rejected_by.length === 0) {
    const warned = result.runs.filter((r) => r.outcome === 'WARN').map((r) => r.case);
    return `${head} by ${result.runs.length} cases${warned.length > 0 ? `, a choice warned in ${named(warned)}` : ''}`;
  }
  return `${head} ${result.rejected_by.map((r) => `${r.case} ${r.outcome}${r.requirement ? ` (${r.requirement})` : ''}`).join('; ')}`;
}

const percent = (n: number, total: number) => (total === 0 ? '-' : `${Math.floor((100 * n) / total)}%`);

export function formatKillMatrix(matrix: KillMatrix, outDir: string): string {
  const lines = [''];
  for (const run of matrix.false_failures)
    lines.push(`  FALSE FAILURE ${run.case}: ${run.outcome} against the faultless reference${run.message ? `: ${run.message}` : ''}`);
  for (const fault of matrix.faults) {
    for (const run of fault.misattributed)
      lines.push(`  MISATTRIBUTED with ${fault.id}: ${run.case} failed citing ${run.requirement}, which the fault does not list`);
  }
  if (matrix.uncovered.length > 0) lines.push(`  MUST requirements with no caught fault: ${matrix.uncovered.join(', ')}`);
  for (const variant of matrix.variants)
    for (const run of variant.rejected_by)
      lines.push(`  REJECTED ${variant.id}: ${run.case} ${run.outcome}${run.message ? `: ${run.message}` : ''}`);
  const { sensitivity, specificity } = matrix;
  const misattributed = misattributedCount(matrix);
  lines.push(
    `touchstone: kill matrix ${isComplete(matrix) ? 'COMPLETE' : 'HAS HOLES'} (${(matrix.duration_ms / 1000).toFixed(1)} s)`,
    `  sensitivity ${percent(sensitivity.caught, sensitivity.total)}: ${sensitivity.caught} of ${sensitivity.total} faults caught` +
      `${matrix.uncovered.length > 0 ? `, ${matrix.uncovered.length} MUST requirements without a caught fault` : ''}` +
      `${misattributed > 0 ? `, ${misattributed} catches citing a requirement the fault does not list` : ''}`,
    `  specificity ${percent(specificity.conforming, specificity.total)}: ${specificity.conforming} of ${specificity.total} variations judged conforming`,
    `  ${matrix.false_failures.length} false failures in ${matrix.baseline_cases} faultless cases`,
    `  reports: ${outDir}/{kill-matrix.json,<side>/report.html,…}`,
    '',
  );
  return lines.join('\n');
}
