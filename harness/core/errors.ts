// The few error types of touchstone. A ConformanceFailure is the target's fault (a check
// failed); a HarnessError is ours or the environment's. Everything else is a bug.
import type { ExchangeRecord } from './results.js';

export class ConformanceFailure extends Error {
  readonly code = 'CONFORMANCE';
  constructor(
    readonly requirement: string,
    readonly expected: string,
    readonly actual: string,
    readonly exchange?: ExchangeRecord,
  ) {
    super(`${requirement}: expected ${expected}, got ${actual}`);
    this.name = 'ConformanceFailure';
  }
}

export type HarnessErrorCode =
  | 'USAGE' // bad command line
  | 'CONFIG' // a suite, registry, world or tokens file is invalid
  | 'TARGET_UNREACHABLE' // nothing answers at the target
  | 'TARGET_IO' // a single exchange failed below HTTP (reset, timeout)
  | 'CAPABILITY' // a case needs something the target or run lacks (becomes SKIP)
  | 'RECORDING'; // a replay asked the recording for something it lacks (the case is ERROR, never judged on it)

/** Exit codes of every command, from DESIGN.md. */
export const EXIT = { conforming: 0, failed: 1, usage: 2, unreachable: 3, incomplete: 4 } as const;

const HARNESS_ERROR = Symbol.for('touchstone.HarnessError');

export class HarnessError extends Error {
  // The compiled commands (bin/build.ts) bundle the dispatcher and the commands apart, each
  // with its own copy of this class: a mark shared through the global symbol registry lets
  // `instanceof HarnessError` know an error of either copy (subclasses keep the usual test).
  readonly [HARNESS_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class tested against, a subclass included
    if (this !== HarnessError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && HARNESS_ERROR in value;
  }

  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }

  get exitCode(): number {
    return this.code === 'TARGET_UNREACHABLE' ? EXIT.unreachable : EXIT.usage;
  }
}

/** A request a replay's recording lacks (proxy/with-cassette.ts): the case is ERROR, never judged on the proxy's answer. */
export const isRecordingMiss = (error: unknown): error is HarnessError => error instanceof HarnessError && error.code === 'RECORDING';
