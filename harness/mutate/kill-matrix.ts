// The kill matrix: proof that the suites catch what they claim to. Every case runs once
// against the faultless reference (any case that does not pass is a false failure); then,
// for each built-in fault, the cases citing a requirement the fault breaks run with the
// fault on. A case catches the fault when it fails (FAIL or WARN) citing one of those
// requirements; a case that fails citing another requirement is listed as misattributed,
// since the registry or the suite then says something untrue. A fault no case catches is
// a hole in the suites; a MUST requirement with no caught fault is one too.
import type { CaseFacts, CaseOutcome, CaseTiming, Level, Outcome } from '../core/results.js';
import type { RunKind } from '../suite/requirement-registry.js';
import type { Fault } from './fault-registry.js';

/** How one side (service, plugin or compiler) runs its cases, with or without a fault. */
export interface SideRunner {
  side: RunKind;
  cases: CaseFacts[];
  /** How many of its cases may run at once: the service's share one state, so 1. */
  concurrency: number;
  run(caseId: string, fault: string | undefined): Promise<CaseOutcome & CaseTiming>;
}

export interface CaseRun {
  case: string;
  outcome: Outcome;
  /** The requirement the failing check cited. */
  requirement?: string;
  message?: string;
}

export interface FaultResult {
  id: string;
  side: RunKind;
  does: string;
  breaks: string[];
  /** The cases that caught it. */
  caught_by: string[];
  /** Cases that failed citing a requirement the fault does not list. */
  misattributed: CaseRun[];
  /** Every case run with the fault on. */
  runs: CaseRun[];
}

export interface RequirementCoverage {
  id: string;
  level: Level;
  side: RunKind;
  cases: string[];
  /** Each fault that breaks it, with the cases citing it that caught the fault. */
  faults: { id: string; caught_by: string[] }[];
}

/** One case's run against the faultless reference. */
export interface BaselineRun {
  side: RunKind;
  case: CaseFacts;
  found: CaseOutcome & CaseTiming;
}

/** kill-matrix.json */
export interface KillMatrix {
  format: 'touchstone-kill-matrix/1';
  started_at: string;
  duration_ms: number;
  /** How many cases ran against the faultless reference. */
  baseline_cases: number;
  /** Baseline cases that did not pass against the faultless reference. */
  false_failures: CaseRun[];
  faults: FaultResult[];
  requirements: RequirementCoverage[];
  /** Faults no case caught. */
  uncaught: string[];
  /** MUST requirements without a fault that a case citing them caught. */
  uncovered: string[];
}

/** Catches that cite a requirement the fault does not list: a case failing for the wrong reason. */
export const misattributedCount = (matrix: KillMatrix): number => matrix.faults.reduce((n, fault) => n + fault.misattributed.length, 0);

/** No fault missed, no MUST without a caught fault, no false failure, no misattributed catch. */
export const isComplete = (matrix: KillMatrix): boolean =>
  matrix.uncaught.length + matrix.uncovered.length + matrix.false_failures.length + misattributedCount(matrix) === 0;

export interface KillMatrixInput {
  faults: Fault[];
  runners: SideRunner[];
  requirements: { id: string; level: Level; side: RunKind }[];
  /** Called as each fault's runs finish. */
  onFault?(result: FaultResult): void;
}

const runOf = (caseId: string, found: CaseOutcome): CaseRun => ({
  case: caseId,
  outcome: found.outcome,
  ...(found.failure && { requirement: found.failure.requirement }),
  ...(found.outcome !== 'PASS' && found.message && { message: found.message.split('\n')[0] }),
});

/** Runs `jobs` with at most `limit` at a time, in order of start. */
async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

/** The cases that could catch `fault`: those citing a requirement it breaks. */
function suspects(fault: Fault, runner: SideRunner): CaseFacts[] {
  return runner.cases.filter((c) => c.requirements.some((id) => fault.breaks.includes(id)));
}

async function runSide(runner: SideRunner, faults: Fault[], onFault: KillMatrixInput['onFault']) {
  const baseline: BaselineRun[] = await pool(
    runner.cases.map((c) => async () => ({ side: runner.side, case: c, found: await runner.run(c.id, undefined) })),
    runner.concurrency,
  );
  const results = await pool(
    faults.map((fault) => async () => {
      const runs: CaseRun[] = [];
      for (const c of suspects(fault, runner)) runs.push(runOf(c.id, await runner.run(c.id, fault.id)));
      const failed = runs.filter((r) => (r.outcome === 'FAIL' || r.outcome === 'WARN') && r.requirement !== undefined);
      const result: FaultResult = {
        id: fault.id,
        side: fault.side,
        does: fault.does,
        breaks: fault.breaks,
        caught_by: failed.filter((r) => fault.breaks.includes(r.requirement!)).map((r) => r.case),
        misattributed: failed.filter((r) => !fault.breaks.includes(r.requirement!)),
        runs,
      };
      onFault?.(result);
      return result;
    }),
    // A fault's own cases run one after another: the service's share its state.
    runner.concurrency,
  );
  return { baseline, results };
}

export async function runKillMatrix(input: KillMatrixInput): Promise<{ matrix: KillMatrix; baseline: BaselineRun[] }> {
  const started = new Date();
  const sides = await Promise.all(
    input.runners.map((runner) =>
      runSide(
        runner,
        input.faults.filter((f) => f.side === runner.side),
        input.onFault,
      ),
    ),
  );
  const baseline = sides.flatMap((s) => s.baseline);
  const faults = sides.flatMap((s) => s.results);
  const casesById = new Map(baseline.map((b) => [b.case.id, b.case]));
  const requirements = input.requirements.map((r): RequirementCoverage => {
    const cases = baseline.filter((b) => b.case.requirements.includes(r.id)).map((b) => b.case.id);
    const breaking = faults.filter((f) => f.breaks.includes(r.id));
    return {
      ...r,
      cases,
      faults: breaking.map((f) => ({ id: f.id, caught_by: f.caught_by.filter((id) => casesById.get(id)?.requirements.includes(r.id)) })),
    };
  });
  const matrix: KillMatrix = {
    format: 'touchstone-kill-matrix/1',
    started_at: started.toISOString(),
    duration_ms: Date.now() - started.getTime(),
    baseline_cases: baseline.length,
    false_failures: baseline.filter((b) => b.found.outcome !== 'PASS').map((b) => runOf(b.case.id, b.found)),
    faults,
    requirements,
    uncaught: faults.filter((f) => f.caught_by.length === 0).map((f) => f.id),
    uncovered: requirements.filter((r) => r.level === 'MUST' && !r.faults.some((f) => f.caught_by.length > 0)).map((r) => r.id),
  };
  return { matrix, baseline };
}
