// How a case of any suite becomes a Playwright test and hands its outcome to the
// conformance reporter: the tags and annotations the reporter reads back, and the outcome
// attachment. Shared by the service, plugin and compiler specs.
import type { TestDetails, TestInfo } from '@playwright/test';
import type { CaseFacts, CaseOutcome } from '../core/results.js';
import { OUTCOME_ATTACHMENT } from '../core/run-config.js';

/** The tags and annotations the conformance reporter reads the case's facts back from. */
export function caseTestDetails(facts: CaseFacts): TestDetails {
  return {
    tag: [`@${facts.level}`, `@${facts.suite}`],
    annotation: [
      { type: 'case', description: facts.id },
      { type: 'level', description: facts.level },
      ...facts.requirements.map((id) => ({ type: 'requirement', description: id })),
      ...(facts.role === undefined ? [] : [{ type: 'role', description: facts.role }]),
      ...facts.endpoints.map((e) => ({ type: 'endpoint', description: e })),
      ...facts.aspects.map((a) => ({ type: 'aspect', description: a })),
    ],
  };
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
