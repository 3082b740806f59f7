// Folds case results and the requirements in scope into the results.json document, and
// decides the verdict. A verdict never overstates:
// - a requirement counts as checked only by a case that got to check it: a case that
//   passed or only warned (it runs to its end), or the check that broke it. A case that
//   stopped at a failure, was skipped, errored or ran only some of its rows leaves the
//   rest of its requirements unchecked (`unverified`), and a requirement no case checked
//   is UNTESTED;
// - conforming needs every MUST requirement in scope checked, none broken, no case in
//   ERROR; a MUST broken only in a case the baseline lists (XFAIL) is still non-conforming.
import { sha256 } from '../core/fingerprint.js';
import { shellWord } from '../core/shell-word.js';
import type { Requirement } from '../core/suite-format.js';
import { outcomeOfBroken, worstOutcome } from '../core/outcome-order.js';
import {
  OUTCOMES,
  type CaseFacts,
  type CaseOutcome,
  type CaseResult,
  type CaseTiming,
  type Coverage,
  type Fingerprint,
  type Ratio,
  type Gaps,
  type Level,
  type Missing,
  type Outcome,
  type RequirementResult,
  type Results,
  type Verdict,
} from '../core/results.js';

export interface RunFacts {
  kind: Results['kind'];
  target: Results['target'];
  startedAt: Date;
  finishedAt: Date;
  strict: boolean;
  version: string;
  fingerprint: Fingerprint;
  /** --suite, when the run was narrowed to some suites. */
  suites: string[];
  /** --only, --grep and --grep-invert, when the run was narrowed to some cases. */
  only?: string[];
  grep?: string;
  grepInvert?: string;
  /** --shard's i/n, when the run was one part of a sharded run. */
  shard?: string;
  /** The command that runs the same target again; `--only <case>` makes each case's rerun. */
  rerun?: string;
  /** The target could not be reset between cases (no control.reset): gaps.shared_state. */
  sharedState?: boolean;
}

/** A case's record in results.json: its facts and what its run found (empty lists left out). */
export function caseResult(facts: CaseFacts, found: CaseOutcome, timing: CaseTiming): CaseResult {
  const record: CaseResult = { ...facts, outcome: found.outcome, started_at: timing.started_at, duration_ms: timing.duration_ms };
  if (record.role === undefined) delete record.role;
  if (found.message) record.message = found.message;
  if (found.failure) record.failure = found.failure;
  if (found.failures?.length) record.failures = found.failures;
  if (found.matrix?.length) record.matrix = found.matrix;
  if (found.broken?.length) record.broken = found.broken;
  if (found.unverified?.length) record.unverified = found.unverified;
  if (found.missing) record.missing = found.missing;
  if (found.not_reached) record.not_reached = found.not_reached;
  return record;
}

/** What one case says about one requirement it cites: an outcome, or nothing when it never checked it. */
function contribution(c: CaseResult, id: string): Exclude<Outcome, 'SKIP'> | undefined {
  if (c.outcome === 'ERROR') return 'ERROR';
  // A skipped case checked nothing (and carries no failure): it never decides a requirement.
  if (c.outcome === 'SKIP' || c.unverified?.includes(id)) return undefined;
  if (c.failure?.requirement === id) return c.outcome;
  if (c.broken?.includes(id)) return c.outcome === 'XFAIL' ? 'XFAIL' : 'WARN';
  return 'PASS';
}

function mergeMissing(from: Iterable<Missing | undefined>): Missing | undefined {
  const roles = new Set<string>();
  const capabilities = new Set<string>();
  for (const missing of from) {
    for (const role of missing?.roles ?? []) roles.add(role);
    for (const capability of missing?.capabilities ?? []) capabilities.add(capability);
  }
  if (roles.size === 0 && capabilities.size === 0) return undefined;
  return { ...(roles.size > 0 && { roles: [...roles].sort() }), ...(capabilities.size > 0 && { capabilities: [...capabilities].sort() }) };
}

function requirementResult(r: Requirement, cases: CaseResult[]): RequirementResult {
  const citing = cases.filter((c) => c.requirements.includes(r.id) || c.broken?.includes(r.id) || c.failure?.requirement === r.id);
  const outcomes = citing.flatMap((c) => contribution(c, r.id) ?? []);
  const result: RequirementResult = {
    id: r.id,
    level: r.level,
    basis: r.basis,
    source: r.source,
    quote: r.quote,
    cases: citing.map((c) => c.id),
    status: worstOutcome(outcomes) ?? 'UNTESTED',
    quote_sha256: sha256(r.quote),
  };
  const missing = result.status === 'UNTESTED' ? mergeMissing(citing.map((c) => c.missing)) : undefined;
  if (missing) result.missing = missing;
  return result;
}

function decideVerdict(cases: CaseResult[], gaps: Gaps, levelOf: (id: string) => Level, strict: boolean): Verdict {
  // A baseline turns a failure into XFAIL; it stays a broken MUST all the same. A FAIL
  // without a failure is a stale baseline entry: the case passed, so it says nothing
  // against the target (the run still exits 1 until the baseline is fixed).
  const broken = (c: CaseResult) => c.failure !== undefined && outcomeOfBroken(levelOf(c.failure.requirement), strict) === 'FAIL';
  if (cases.some((c) => (c.outcome === 'FAIL' || c.outcome === 'XFAIL') && broken(c))) return 'non-conforming';
  return gaps.untested.length > 0 || gaps.errors.length > 0 ? 'incomplete' : 'conforming';
}

/**
 * --suite, --only, --grep, --grep-invert and --shard narrow a run's scope to the requirements its cases cite:
 * a run of one suite (or case, or shard) can conform for what it checks. Otherwise every
 * requirement of its kind is in scope.
 */
export function requirementsInScope(
  requirements: Requirement[],
  scope: { suites: string[]; only?: string[]; grep?: string; grepInvert?: string; shard?: unknown },
  cited: ReadonlySet<string>,
): Requirement[] {
  const narrowed =
    scope.suites.length > 0 ||
    (scope.only ?? []).length > 0 ||
    scope.grep !== undefined ||
    scope.grepInvert !== undefined ||
    scope.shard !== undefined;
  return requirements.filter((r) => !narrowed || cited.has(r.id));
}

/** Coverage of a run (see Coverage): a case that was skipped or errored exercised nothing. */
function coverageOf(cases: CaseResult[], requirements: RequirementResult[]): Coverage {
  const ran = cases.filter((c) => c.outcome !== 'SKIP' && c.outcome !== 'ERROR');
  const ratio = (of: (c: CaseResult) => string[]): Ratio => ({
    covered: new Set(ran.flatMap(of)).size,
    total: new Set(cases.flatMap(of)).size,
  });
  return {
    requirements: { covered: requirements.filter((r) => r.status !== 'UNTESTED').length, total: requirements.length },
    endpoints: ratio((c) => c.endpoints),
    endpoint_aspects: ratio((c) => c.endpoints.flatMap((e) => c.aspects.map((a) => `${e} ${a}`))),
  };
}

export function buildResults(given: CaseResult[], requirements: Iterable<Requirement>, facts: RunFacts): Results {
  const cases = given.map((c) => (facts.rerun && c.outcome !== 'PASS' ? { ...c, rerun: `${facts.rerun} --only ${shellWord(c.id)}` } : c));
  const summary = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const c of cases) summary[c.outcome]++;
  const inScope = [...requirements];
  const requirementResults = inScope.map((r) => requirementResult(r, cases));
  const missing = mergeMissing(cases.map((c) => c.missing));
  const notReached = cases.filter((c) => c.not_reached).map((c) => c.id);
  const gaps: Gaps = {
    untested: requirementResults.filter((r) => r.level === 'MUST' && r.status === 'UNTESTED').map((r) => r.id),
    roles: missing?.roles ?? [],
    capabilities: missing?.capabilities ?? [],
    errors: cases.filter((c) => c.outcome === 'ERROR').map((c) => c.id),
    ...(notReached.length > 0 && { not_reached: notReached }),
    ...(facts.sharedState && { shared_state: true }),
  };
  const levels = new Map(inScope.map((r) => [r.id, r.level]));
  return {
    format: 'touchstone-results/2',
    tool: { name: 'touchstone', version: facts.version },
    fingerprint: facts.fingerprint,
    kind: facts.kind,
    target: facts.target,
    started_at: facts.startedAt.toISOString(),
    finished_at: facts.finishedAt.toISOString(),
    duration_ms: facts.finishedAt.getTime() - facts.startedAt.getTime(),
    strict: facts.strict,
    verdict: decideVerdict(cases, gaps, (id) => levels.get(id) ?? 'MUST', facts.strict),
    scope: {
      suites: facts.suites,
      ...(facts.only && facts.only.length > 0 && { only: facts.only }),
      ...(facts.grep !== undefined && { grep: facts.grep }),
      ...(facts.grepInvert !== undefined && { grep_invert: facts.grepInvert }),
      ...(facts.shard !== undefined && { shard: facts.shard }),
    },
    gaps,
    coverage: coverageOf(cases, requirementResults),
    summary: { ...summary, total: cases.length },
    requirements: requirementResults,
    cases,
  };
}
