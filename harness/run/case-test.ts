// How a planned case becomes a Playwright test and hands its outcome to the conformance
// reporter: its tags, the annotation naming it (the reporter finds its facts in the run's plan
// by that id), and the hand-over of its outcome.
import type { TestDetails, TestInfo } from '@playwright/test';
import type { CaseFacts, CaseOutcome } from '../core/results.js';

export const CASE_ANNOTATION = 'case';
/** The annotation through which each test hands its CaseOutcome (JSON) to the reporter. */
export const OUTCOME_ANNOTATION = 'touchstone-outcome';

/** The tags (level, suite) and the annotation that names the case for the reporter. */
export function caseTestDetails(facts: CaseFacts): TestDetails {
  return { tag: [`@${facts.level}`, `@${facts.suite}`], annotation: [{ type: CASE_ANNOTATION, description: facts.id }] };
}

/** The id of the case a test runs (caseTestDetails). */
export function caseIdOf(test: { annotations: { type: string; description?: string }[] }): string {
  return test.annotations.find((a) => a.type === CASE_ANNOTATION)?.description ?? '';
}

/**
 * Hands the outcome to the reporter, which decides the verdict from it alone, as an annotation
 * of the test's result. Decision: not an attachment (as it was): Playwright makes each
 * attachment a step with a captured stack and creates the test's output folder for it, about
 * 2 ms a case for nothing a user sees. A FAIL or ERROR does not fail the Playwright test:
 * Playwright replaces its worker after a failed test (about 3 s each on a 2-core machine), so a
 * FAIL would cost some thirty times what a PASS costs. A test that never gets here (a crash,
 * Playwright's timeout) has no outcome, and the reporter makes it ERROR.
 */
export function handOverOutcome(testInfo: Pick<TestInfo, 'annotations' | 'skip'>, result: CaseOutcome): void {
  testInfo.annotations.push({ type: OUTCOME_ANNOTATION, description: JSON.stringify(result) });
  if (result.outcome === 'SKIP') testInfo.skip(true, result.message);
}

/** The outcome a test handed over (handOverOutcome), if it got that far. */
export function handedOverOutcome(annotations: readonly { type: string; description?: string }[]): CaseOutcome | undefined {
  const handed = annotations.find((a) => a.type === OUTCOME_ANNOTATION)?.description;
  return handed === undefined ? undefined : (JSON.parse(handed) as CaseOutcome);
}
