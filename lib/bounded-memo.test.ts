import { expect, test } from '@playwright/test';
import { boundedMemo } from './bounded-memo.js';

test('each key is computed once while kept, and no more than max keys are kept', () => {
  const computed: number[] = [];
  const square = boundedMemo(3, (n: number) => {
    computed.push(n);
    return n * n;
  });
  expect([1, 2, 1, 3, 2].map(square)).toEqual([1, 4, 1, 9, 4]);
  expect(computed).toEqual([1, 2, 3]);
  // A fourth key forgets the three kept: the next call of 1 computes it again.
  expect(square(4)).toBe(16);
  expect(square(1)).toBe(1);
  expect(computed).toEqual([1, 2, 3, 4, 1]);
});
