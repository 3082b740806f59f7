// The size limits of rule 5, in each reading of "MB" (size-limits.ts).
import { expect, test } from '@playwright/test';
import { createFaults } from '../../faults.js';
import { createVariants } from '../../variants.js';
import { sizeLimits } from './size-limits.js';

const MiB = 1024 * 1024;

test('1 MB and 100 MB are 1 MiB and 100 MiB, each limit included: "up to"', () => {
  const limits = sizeLimits(createFaults(), createVariants());
  expect([MiB - 1, MiB, MiB + 1].map(limits.isLarge)).toEqual([false, false, true]);
  expect([100 * MiB, 100 * MiB + 1].map(limits.isOver)).toEqual([false, true]);
});

test('contents.decimal-megabyte reads 10^6 and 10^8 bytes, each limit included', () => {
  const limits = sizeLimits(createFaults(), createVariants(['contents.decimal-megabyte']));
  expect([999_999, 1_000_000, 1_000_001, MiB - 1].map(limits.isLarge)).toEqual([false, false, true, true]);
  expect([100_000_000, 100_000_001, 100 * MiB].map(limits.isOver)).toEqual([false, true, true]);
});

test('contents.size-limit-exclusive reads exactly 1 MiB as over the limit, and 1 MiB - 1 under it', () => {
  const limits = sizeLimits(createFaults(), createVariants(['contents.size-limit-exclusive']));
  expect([MiB - 1, MiB].map(limits.isLarge)).toEqual([false, true]);
});

test('the fault contents.every-file-large takes every feature from files of any size', () => {
  const limits = sizeLimits(createFaults(['contents.every-file-large']), createVariants());
  expect([0, 33, MiB].map(limits.isLarge)).toEqual([true, true, true]);
});
