// What the small commands share: a HarnessError becomes its message on stderr and its exit
// code; anything else is a bug and propagates to main.ts.
import { HarnessError } from '../core/errors.js';

export function guarded(body: () => number): number {
  try {
    return body();
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  }
}
