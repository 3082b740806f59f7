import { expect, test } from '@playwright/test';
import { compareWorstFirst, OUTCOMES_WORST_FIRST, worstOutcome } from './outcome-order.js';
import { OUTCOMES } from './results.js';

test('worstOutcome ranks ERROR > FAIL > WARN > XFAIL > SKIP > PASS', () => {
  expect(worstOutcome(['PASS', 'SKIP'])).toBe('SKIP');
  expect(worstOutcome(['SKIP', 'XFAIL', 'PASS'])).toBe('XFAIL');
  expect(worstOutcome(['XFAIL', 'WARN'])).toBe('WARN');
  expect(worstOutcome(['WARN', 'FAIL', 'PASS'])).toBe('FAIL');
  expect(worstOutcome(['FAIL', 'ERROR'])).toBe('ERROR');
  expect(worstOutcome(new Set(['PASS'] as const))).toBe('PASS');
  expect(worstOutcome([])).toBeUndefined();
});

test('OUTCOMES_WORST_FIRST covers every outcome and agrees with the comparator', () => {
  expect([...OUTCOMES_WORST_FIRST].sort()).toEqual([...OUTCOMES].sort());
  expect([...OUTCOMES].sort(compareWorstFirst)).toEqual(OUTCOMES_WORST_FIRST);
});
