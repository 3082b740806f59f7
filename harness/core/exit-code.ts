// The exit code of a finished run, from its results (the codes themselves: EXIT in errors.ts).
import { coverageShortfalls, type MinCoverage } from './coverage.js';
import { EXIT } from './errors.js';
import type { Results } from './results.js';

/**
 * The exit code of a run: 1 for a FAIL (a broken MUST, or a stale baseline entry); 4 when
 * a case errored or a MUST requirement went unchecked, unless --allow-incomplete forgives
 * the unchecked ones (never an ERROR), and when coverage is below --min-coverage; otherwise 0, which includes failures every one of
 * which the baseline lists.
 */
export function exitCodeOf(results: Results, allowIncomplete = false, minCoverage: MinCoverage = {}): number {
  if (results.summary.FAIL > 0) return EXIT.failed;
  if (coverageShortfalls(results, minCoverage).length > 0) return EXIT.incomplete;
  if (results.gaps.errors.length > 0) return EXIT.incomplete;
  if (results.gaps.untested.length > 0 && !allowIncomplete) return EXIT.incomplete;
  return EXIT.conforming;
}
