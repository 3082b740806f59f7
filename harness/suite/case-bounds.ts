// What a case does when its target does not answer. A request of the case that gets no
// answer (refused, reset, DNS, the request's bound of --request-timeout, the case's bound of
// --case-timeout) is the target's failure: the case breaks the step's requirement (FAIL at a MUST),
// naming the request and the network error. The control API (/_conformance/*) is no spec
// requirement: its calls failing stay harness errors (ERROR), and say it was the control API.
import { ConformanceFailure, HarnessError } from '../core/errors.js';
import type { TargetClient } from '../http/target-client.js';
import type { TargetControl } from '../http/target-control.js';

/**
 * A request of the case got no answer. It is graded at the level of the requirement it cites,
 * as any broken check is: FAIL at a MUST, WARN at a SHOULD or MAY. Either way the case stops
 * there (nothing after it can be checked) and what it did not get to is unverified. Decision:
 * not graded as a MUST always, since closing the connection on some requests is a reading the
 * spec allows; an oversized upload refused by a reset instead of the 413 a MAY describes is one.
 */
export class NoAnswer extends ConformanceFailure {
  constructor(requirement: string, why: string) {
    super(requirement, 'an answer', `no answer: ${why}`);
  }
}

export const isNoAnswer = (error: unknown): error is HarnessError => error instanceof HarnessError && error.code === 'TARGET_IO';

/** `work` (a request of the case), a TARGET_IO error of it turned into a NoAnswer citing `requirement`. */
export async function answerOrFail<T>(work: Promise<T>, requirement: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isNoAnswer(error)) throw new NoAnswer(requirement, error.message);
    throw error;
  }
}

export interface CaseDeadline {
  client: TargetClient;
  control: TargetControl;
  /** Stops the clock: call it when the case is over. */
  end(): void;
}

/**
 * The case's bound (--case-timeout): every request and control call still waiting at the
 * deadline fails there with TARGET_IO, so a hanging target costs the case its bound and no
 * more. The request itself is left to its own bound (--request-timeout), which is never longer
 * than the time it could outlive the case by. Without `timeoutMs`, no bound.
 */
export function caseDeadline(client: TargetClient, control: TargetControl, timeoutMs: number | undefined): CaseDeadline {
  if (timeoutMs === undefined) return { client, control, end: () => {} };
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('expired')), timeoutMs);
  });
  // Nobody may be waiting when it expires.
  expired.catch(() => {});
  const within = <T>(what: string, work: Promise<T>): Promise<T> =>
    Promise.race([
      work,
      expired.catch(() => {
        throw new HarnessError('TARGET_IO', `${what}: no answer within the case's bound of ${timeoutMs / 1000} s (--case-timeout)`);
      }),
    ]);
  const bounded = Object.fromEntries(
    Object.entries(control).map(([name, call]) => [
      name,
      (...args: unknown[]) => within(`control API ${name}`, (call as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as unknown as TargetControl;
  return {
    client: { ...client, send: (spec, role) => within(`${spec.method} ${spec.path ?? spec.url}`, client.send(spec, role)) },
    control: bounded,
    end: () => clearTimeout(timer),
  };
}
