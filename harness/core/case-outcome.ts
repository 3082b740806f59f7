// What a case of any kind (service, plugin, compiler) hands to the reporter, and how a
// broken check becomes one: the level of the requirement it enforces grades the case
// (outcomeOfBroken), and whatever the case did not get to check is said out loud
// (`unverified`), so the verdict never counts it as checked.
import type { ConformanceFailure } from './errors.js';
import { outcomeOfBroken } from './outcome-order.js';
import type { CaseOutcome, FailureDetail, Level } from './results.js';
import type { RequirementRegistry } from './requirement-registry.js';

export type { CaseOutcome } from './results.js';

export interface Grading {
  registry: RequirementRegistry;
  strict: boolean;
}

export function levelOf(registry: RequirementRegistry, id: string): Level {
  return registry.get(id)?.level ?? 'MUST';
}

/** A broken requirement that only warns goes on; one that fails stops the case. */
export function isSoft(error: ConformanceFailure, grading: Grading): boolean {
  return outcomeOfBroken(levelOf(grading.registry, error.requirement), grading.strict) === 'WARN';
}

/** One broken check as a message line: "MUST social.access, as user-scope: expected status 422, got status 403". */
export function failureMessage(level: Level, failure: Pick<FailureDetail, 'requirement' | 'expected' | 'actual' | 'role'>): string {
  return `${level} ${failure.requirement}${failure.role ? `, as ${failure.role}` : ''}: expected ${failure.expected}, got ${failure.actual}`;
}

/**
 * A case that stopped at `error`: graded by its requirement's level, with every other
 * requirement it cites unchecked. `detail` adds what the caller knows (exchange, reproduction).
 */
export function stoppedAt(
  error: ConformanceFailure,
  requirements: readonly string[],
  grading: Grading,
  detail: Partial<FailureDetail> = {},
): CaseOutcome {
  const level = levelOf(grading.registry, error.requirement);
  const failure: FailureDetail = { requirement: error.requirement, expected: error.expected, actual: error.actual, ...detail };
  return {
    outcome: outcomeOfBroken(level, grading.strict),
    message: failureMessage(level, failure),
    failure,
    broken: [error.requirement],
    unverified: requirements.filter((id) => id !== error.requirement),
  };
}
