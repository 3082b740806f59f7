// How a case of any suite becomes a Playwright test and hands its outcome to the
// conformance reporter: the tags and annotations the reporter reads back, and the outcome
// attachment. Shared by the service, plugin and compiler specs.
import type { TestDetails, TestInfo } from '@playwright/test';
import type { Level } from '../report/results.js';
import type { CaseOutcome } from './case-outcome.js';
import { OUTCOME_ATTACHMENT } from './run-config.js';

type Annotation = { type: string; description: string };

export function caseTestDetails(suite: string, caseId: string, level: Level, requirements: string[], extra: Annotation[] = []): TestDetails {
  return {
    tag: [`@${level}`, `@${suite}`],
    annotation: [
      { type: 'case', description: `${suite}/${caseId}` },
      { type: 'level', description: level },
      ...requirements.map((id) => ({ type: 'requirement', description: id })),
      ...extra,
    ],
  };
}

/** Attaches the outcome for the reporter; a FAIL or ERROR also fails the Playwright test. */
export async function handOverOutcome(testInfo: TestInfo, result: CaseOutcome): Promise<void> {
  await testInfo.attach(OUTCOME_ATTACHMENT, { body: JSON.stringify(result), contentType: 'application/json' });
  if (result.outcome === 'SKIP') testInfo.skip(true, result.message);
  if (result.outcome === 'FAIL' || result.outcome === 'ERROR') throw new Error(result.message);
}
