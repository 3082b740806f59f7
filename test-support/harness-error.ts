// Test support: the HarnessError a call rejects with (the test fails when it resolves or
// rejects with anything else), for tests that then check its code and message.
import { expect } from '@playwright/test';
import { HarnessError } from '../harness/core/errors.js';

export async function harnessErrorOf(call: Promise<unknown>): Promise<HarnessError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}
