// How a planned case becomes a Playwright test and hands its outcome to the conformance
// reporter: its tags, the annotation naming it (the reporter finds its facts in the run's plan
// by that id), and the outcome attachment.
import type { TestDetails, TestInfo } from '@playwright/test';
import type { CaseFacts, CaseOutcome } from '../core/results.js';
import { OUTCOME_ATTACHMENT } from '../core/run-config.js';

export const CASE_ANNOTATION = 'case';

/** The tags (level, suite) and the annotation that names the case for the reporter. */
export function caseTestDetails(facts: CaseFacts): TestDetails {
  return { tag: [`@${facts.level}`, `@${facts.suite}`], annotation: [{ type: CASE_ANNOTATION, description: facts.id }] };
}

/** The id of the case a test runs (caseTestDetails). */
export function caseIdOf(test: { annotations: { type: string; description?: string }[] }): string {
  return test.annotations.find((a) => a.type === CASE_ANNOTATION)?.description ?? '';
}

/**
 * Attaches the outcome for the reporter, which decides the verdict from it alone. A FAIL or
 * ERROR does not fail the Playwright test: Playwright replaces its worker after a failed test
 * (about 3 s each on a 2-core machine), so a FAIL would cost some thirty times what a PASS
 * costs. A test that never gets here (a crash, Playwright's timeout) has no outcome
 * attached, and the reporter makes it ERROR.
 */
export async function handOverOutcome(testInfo: Pick<TestInfo, 'attach' | 'skip'>, result: CaseOutcome): Promise<void> {
  await testInfo.attach(OUTCOME_ATTACHMENT, { body: JSON.stringify(result), contentType: 'application/json' });
  if (result.outcome === 'SKIP') testInfo.skip(true, result.message);
}
