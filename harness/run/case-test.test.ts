// A case's outcome travels to the reporter as an attachment only: no outcome fails the
// Playwright test (a failed test makes Playwright replace its worker, seconds per FAIL).
import { expect, test } from '@playwright/test';
import type { CaseOutcome } from '../core/results.js';
import { OUTCOME_ATTACHMENT } from '../core/run-config.js';
import { handOverOutcome } from './case-test.js';

function fakeTestInfo() {
  const attached: { name: string; body: string }[] = [];
  const skipped: (string | undefined)[] = [];
  return {
    attached,
    skipped,
    info: {
      attach: async (name: string, options: { body?: string | Buffer }) => void attached.push({ name, body: String(options.body) }),
      skip: (_condition?: boolean, description?: string) => void skipped.push(description),
    } as unknown as Parameters<typeof handOverOutcome>[0],
  };
}

for (const outcome of ['PASS', 'WARN', 'FAIL', 'ERROR'] as const) {
  test(`a ${outcome} is attached for the reporter and does not fail the Playwright test`, async () => {
    const fake = fakeTestInfo();
    const result: CaseOutcome = { outcome, ...(outcome !== 'PASS' && { message: `MUST x: expected 200, got 500 (${outcome})` }) };
    await expect(handOverOutcome(fake.info, result)).resolves.toBeUndefined();
    expect(fake.attached).toEqual([{ name: OUTCOME_ATTACHMENT, body: JSON.stringify(result) }]);
    expect(fake.skipped).toEqual([]);
  });
}

test('a SKIP is attached and marks the Playwright test skipped, with its reason', async () => {
  const fake = fakeTestInfo();
  await handOverOutcome(fake.info, { outcome: 'SKIP', message: 'the target lacks capability control.clock' });
  expect(fake.attached.map((a) => a.name)).toEqual([OUTCOME_ATTACHMENT]);
  expect(fake.skipped).toEqual(['the target lacks capability control.clock']);
});
