// How bad an outcome is, for everything that folds many outcomes into one: a matrix cell,
// a requirement's status, the order failures are listed in. ERROR ranks above FAIL because
// a harness or environment fault means the verdict itself cannot be trusted.
import type { Level, Outcome } from './results.js';

const SEVERITY: Readonly<Record<Outcome, number>> = { PASS: 0, SKIP: 1, XFAIL: 2, WARN: 3, FAIL: 4, ERROR: 5 };

/** Outcomes from worst to best: ERROR, FAIL, WARN, XFAIL, SKIP, PASS. */
export const OUTCOMES_WORST_FIRST: readonly Outcome[] = ['ERROR', 'FAIL', 'WARN', 'XFAIL', 'SKIP', 'PASS'];

export function outcomeSeverity(outcome: Outcome): number {
  return SEVERITY[outcome];
}

/** Sort comparator putting the worse outcome first. */
export function compareWorstFirst(a: Outcome, b: Outcome): number {
  return SEVERITY[b] - SEVERITY[a];
}

/** The worst of the given outcomes, or undefined when there are none. */
export function worstOutcome<O extends Outcome>(outcomes: Iterable<O>): O | undefined {
  let worst: O | undefined;
  for (const outcome of outcomes) {
    if (worst === undefined || SEVERITY[outcome] > SEVERITY[worst]) worst = outcome;
  }
  return worst;
}

/** What a broken requirement of this level makes of a case: FAIL for MUST (and SHOULD under --strict), else WARN. */
export function outcomeOfBroken(level: Level, strict: boolean): Outcome {
  return level === 'MUST' || (level === 'SHOULD' && strict) ? 'FAIL' : 'WARN';
}
