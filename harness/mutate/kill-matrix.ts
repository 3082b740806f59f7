// The kill matrix: proof that the suites judge what they claim to, both ways.
// - Sensitivity: every case runs once against the faultless reference (any case that does
//   not pass is a false failure); then, for each built-in fault, the cases citing a
//   requirement the fault breaks run with the fault on. A case catches the fault when it
//   fails (FAIL or WARN) having broken one of those requirements; a case that fails having
//   broken only others is listed as misattributed, since the registry or the suite then
//   says something untrue. A fault no case catches is a hole in the suites; a MUST
//   requirement with no caught fault is one too.
// - Specificity: for each built-in variation (another choice the spec allows), every case of
//   its side runs with it on: a choice can show in any answer, not only where the variation's
//   author looked. Each case must pass, or warn only on requirements whose basis is a choice
//   (a SHOULD or MAY case naming the reference's reading). A case that judges a variation
//   otherwise rejects it: the suites then assert something the spec does not say.
import type { Basis, CaseFacts, CaseOutcome, CaseTiming, Level, Outcome } from '../core/results.js';
import type { RunKind } from '../core/requirement-registry.js';
import type { Fault, Variant } from './switch-registry.js';

/** What a run switches on in the reference: nothing, one fault or one variation. */
export type Switched = { fault: string } | { variant: string } | undefined;

/** How one side (service, plugin or compiler) runs its cases, with a fault or a variation on, or neither. */
export interface SideRunner {
  side: RunKind;
  cases: CaseFacts[];
  /** How many of its cases may run at once: the service's share one state, so 1. */
  concurrency: number;
  run(caseId: string, switched: Switched): Promise<CaseOutcome & CaseTiming>;
}

export interface CaseRun {
  case: string;
  outcome: Outcome;
  /** The requirement the deciding failing check cited. */
  requirement?: string;
  /** Every requirement a check of the case found broken. */
  broken?: string[];
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

export interface VariantResult {
  id: string;
  side: RunKind;
  does: string;
  allowed_by: string;
  requirements: string[];
  /** Every case run with the variation on. */
  runs: CaseRun[];
  /** The runs that judged it non-conforming: a FAIL, an ERROR or SKIP, or a WARN on a requirement that is no choice. */
  rejected_by: CaseRun[];
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
  variants: VariantResult[];
  /** Variations a case judged non-conforming. */
  rejected: string[];
  /** Faults caught of all faults, and variations judged conforming of all variations. */
  sensitivity: { caught: number; total: number };
  specificity: { conforming: number; total: number };
}

/** Catches that cite a requirement the fault does not list: a case failing for the wrong reason. */
export const misattributedCount = (matrix: KillMatrix): number => matrix.faults.reduce((n, fault) => n + fault.misattributed.length, 0);

/** No fault missed, no MUST without a caught fault, no false failure, no misattributed catch, no variation rejected. */
export const isComplete = (matrix: KillMatrix): boolean =>
  matrix.uncaught.length + matrix.uncovered.length + matrix.false_failures.length + misattributedCount(matrix) + matrix.rejected.length ===
  0;

export interface KillMatrixInput {
  faults: Fault[];
  variants: Variant[];
  runners: SideRunner[];
  requirements: { id: string; level: Level; basis: Basis; side: RunKind }[];
  /** Every requirement whose basis is a choice, in scope or not (default: those of `requirements`). */
  choices?: Iterable<string>;
  /** Called as each fault's runs finish. */
  onFault?(result: FaultResult): void;
  /** Called as each variation's runs finish. */
  onVariant?(result: VariantResult): void;
}

const runOf = (caseId: string, found: CaseOutcome): CaseRun => ({
  case: caseId,
  outcome: found.outcome,
  ...(found.failure && { requirement: found.failure.requirement }),
  ...(found.broken?.length && { broken: found.broken }),
  ...(found.outcome !== 'PASS' && found.message && { message: found.message.split('\n')[0] }),
});

/** The requirements a run broke: its `broken` list, or the deciding failure's. */
const brokenBy = (run: CaseRun): string[] => run.broken ?? (run.requirement ? [run.requirement] : []);

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

/** Whether a run with a variation on judged it conforming: a PASS, or a WARN on choices only. */
function accepts(run: CaseRun, isChoice: (id: string) => boolean): boolean {
  if (run.outcome === 'PASS') return true;
  const broken = brokenBy(run);
  return run.outcome === 'WARN' && broken.length > 0 && broken.every(isChoice);
}

interface SideSwitches {
  faults: Fault[];
  variants: Variant[];
  isChoice(id: string): boolean;
}

async function runSide(runner: SideRunner, switches: SideSwitches, input: Pick<KillMatrixInput, 'onFault' | 'onVariant'>) {
  const baseline: BaselineRun[] = await pool(
    runner.cases.map((c) => async () => ({ side: runner.side, case: c, found: await runner.run(c.id, undefined) })),
    runner.concurrency,
  );
  const runAll = async (cases: CaseFacts[], switched: Switched) => {
    const runs: CaseRun[] = [];
    for (const c of cases) runs.push(runOf(c.id, await runner.run(c.id, switched)));
    return runs;
  };
  const results = await pool(
    switches.faults.map((fault) => async () => {
      const runs = await runAll(suspects(fault, runner), { fault: fault.id });
      const failed = runs.filter((r) => (r.outcome === 'FAIL' || r.outcome === 'WARN') && brokenBy(r).length > 0);
      const catches = (r: CaseRun) => brokenBy(r).some((id) => fault.breaks.includes(id));
      const result: FaultResult = {
        id: fault.id,
        side: fault.side,
        does: fault.does,
        breaks: fault.breaks,
        caught_by: failed.filter(catches).map((r) => r.case),
        misattributed: failed.filter((r) => !catches(r)),
        runs,
      };
      input.onFault?.(result);
      return result;
    }),
    // A switch's own cases run one after another: the service's share its state.
    runner.concurrency,
  );
  const variants = await pool(
    switches.variants.map((variant) => async () => {
      const runs = await runAll(runner.cases, { variant: variant.id });
      const result: VariantResult = {
        id: variant.id,
        side: variant.side,
        does: variant.does,
        allowed_by: variant.allowed_by,
        requirements: variant.requirements,
        runs,
        rejected_by: runs.filter((r) => !accepts(r, switches.isChoice)),
      };
      input.onVariant?.(result);
      return result;
    }),
    runner.concurrency,
  );
  return { baseline, results, variants };
}

export async function runKillMatrix(input: KillMatrixInput): Promise<{ matrix: KillMatrix; baseline: BaselineRun[] }> {
  const started = new Date();
  const choices = new Set(input.choices ?? input.requirements.filter((r) => r.basis === 'choice').map((r) => r.id));
  const sides = await Promise.all(
    input.runners.map((runner) =>
      runSide(
        runner,
        {
          faults: input.faults.filter((f) => f.side === runner.side),
          variants: input.variants.filter((v) => v.side === runner.side),
          isChoice: (id) => choices.has(id),
        },
        input,
      ),
    ),
  );
  const baseline = sides.flatMap((s) => s.baseline);
  const faults = sides.flatMap((s) => s.results);
  const variants = sides.flatMap((s) => s.variants);
  const casesById = new Map(baseline.map((b) => [b.case.id, b.case]));
  const requirements = input.requirements.map(({ basis: _basis, ...r }): RequirementCoverage => {
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
    variants,
    rejected: variants.filter((v) => v.rejected_by.length > 0).map((v) => v.id),
    sensitivity: { caught: faults.filter((f) => f.caught_by.length > 0).length, total: faults.length },
    specificity: { conforming: variants.filter((v) => v.rejected_by.length === 0).length, total: variants.length },
  };
  return { matrix, baseline };
}
