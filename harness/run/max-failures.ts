// --max-failures N (Playwright's name): once N cases have FAILed, the cases not yet begun are
// not run. Workers share the count through a file in the run's scratch folder
// (RunConfig.failureCounter), one byte appended per FAIL (appends of one byte never interleave).
// Decisions: the count is of the cases' own FAILs, before a baseline turns known ones into
// XFAIL (the workers do not read baselines); cases already running when the count is reached
// finish and are reported as they end, so a run with several workers may end with a few more
// than N FAILs. A case not run is SKIP, its message saying why.
import { appendFileSync, statSync } from 'node:fs';
import type { CaseOutcome } from '../core/results.js';
import type { RunConfig } from '../core/run-config.js';

export const maxFailuresMessage = (n: number) => `not run: --max-failures ${n} stopped the run after ${n} FAIL case${n === 1 ? '' : 's'}`;

export interface FailureBudget {
  /** The outcome of a case the budget leaves unrun, or undefined when the case may run. */
  spent(): CaseOutcome | undefined;
  /** Counts the outcome of a case that ran. */
  count(outcome: CaseOutcome): void;
}

export function failureBudget(config: Pick<RunConfig, 'maxFailures' | 'failureCounter'>): FailureBudget {
  const { maxFailures, failureCounter } = config;
  if (maxFailures === undefined || failureCounter === undefined) return { spent: () => undefined, count: () => {} };
  const failures = () => {
    try {
      return statSync(failureCounter).size;
    } catch {
      return 0;
    }
  };
  return {
    spent: () => (failures() >= maxFailures ? { outcome: 'SKIP', message: maxFailuresMessage(maxFailures) } : undefined),
    count: (outcome) => {
      if (outcome.outcome === 'FAIL') appendFileSync(failureCounter, 'F');
    },
  };
}
