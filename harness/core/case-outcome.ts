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
 * A case with broken checks, each a failure: FAIL when one broke a MUST (it decides, and comes
 * first), WARN when only SHOULD or MAY checks broke; every broken check is listed, a message
 * line each. `stopped`: the case did not run to its end, so what it cites and did not see
 * broken is unverified.
 */
export function brokenOutcome(
  found: readonly FailureDetail[],
  requirements: readonly string[],
  grading: Grading,
  stopped = true,
): CaseOutcome {
  const levelOfFailure = (f: FailureDetail) => levelOf(grading.registry, f.requirement);
  const deciding = found.find((f) => outcomeOfBroken(levelOfFailure(f), grading.strict) === 'FAIL') ?? found[0]!;
  const failures = [deciding, ...found.filter((f) => f !== deciding)];
  const broken = [...new Set(failures.map((f) => f.requirement))];
  return {
    outcome: outcomeOfBroken(levelOfFailure(deciding), grading.strict),
    message: failures.map((f) => failureMessage(levelOfFailure(f), f)).join('\n'),
    failure: deciding,
    ...(failures.length > 1 && { failures }),
    broken,
    ...(stopped && { unverified: requirements.filter((id) => !broken.includes(id)) }),
  };
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
  return brokenOutcome(
    [{ requirement: error.requirement, expected: error.expected, actual: error.actual, ...detail }],
    requirements,
    grading,
  );
}

/** A case whose precondition did not hold: it checked nothing, and says why once, and who judges that. */
export function notReached(cause: string, judgedBy: string | undefined): CaseOutcome {
  const not_reached = { cause, ...(judgedBy && { judged_by: judgedBy }) };
  return { outcome: 'SKIP', message: `not reached: ${whyNotReached(not_reached)}`, not_reached };
}

/** "<cause> (judged by <case>)": how every report says why a case was not reached. */
export function whyNotReached({ cause, judged_by }: NonNullable<CaseOutcome['not_reached']>): string {
  return `${cause}${judged_by ? ` (judged by ${judged_by})` : ''}`;
}
