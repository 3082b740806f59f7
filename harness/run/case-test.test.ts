// A case's outcome travels to the reporter in an annotation only: no outcome fails the
// Playwright test (a failed test makes Playwright replace its worker, seconds per FAIL).
import { expect, test } from '@playwright/test';
import type { CaseOutcome } from '../core/results.js';
import { handedOverOutcome, handOverOutcome } from './case-test.js';

function fakeTestInfo() {
  const skipped: (string | undefined)[] = [];
  const info = {
    annotations: [] as { type: string; description?: string }[],
    skip: (_condition?: boolean, description?: string) => void skipped.push(description),
  };
  return { info: info as unknown as Parameters<typeof handOverOutcome>[0], annotations: info.annotations, skipped };
}

for (const outcome of ['PASS', 'WARN', 'FAIL', 'ERROR'] as const) {
  test(`a ${outcome} is handed over for the reporter and does not fail the Playwright test`, () => {
    const fake = fakeTestInfo();
    const result: CaseOutcome = { outcome, ...(outcome !== 'PASS' && { message: `MUST x: expected 200, got 500 (${outcome})` }) };
    expect(() => handOverOutcome(fake.info, result)).not.toThrow();
    expect(handedOverOutcome(fake.annotations)).toEqual(result);
    expect(fake.skipped).toEqual([]);
  });
}

test('a SKIP is handed over and marks the Playwright test skipped, with its reason', () => {
  const fake = fakeTestInfo();
  const result: CaseOutcome = { outcome: 'SKIP', message: 'the target lacks capability control.clock' };
  handOverOutcome(fake.info, result);
  expect(handedOverOutcome(fake.annotations)).toEqual(result);
  expect(fake.skipped).toEqual(['the target lacks capability control.clock']);
});

test('a test that never handed over has no outcome (the reporter makes it ERROR)', () => {
  expect(handedOverOutcome([{ type: 'case', description: 'a/b' }])).toBeUndefined();
});
