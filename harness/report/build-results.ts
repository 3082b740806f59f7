// Folds case results and the requirement registry into the results.json document.
import type { Requirement } from '../suite/suite-format.js';
import { worstOutcome } from './outcome-order.js';
import { OUTCOMES, type CaseResult, type Outcome, type RequirementResult, type Results } from './results.js';

export interface RunFacts {
  kind: Results['kind'];
  target: Results['target'];
  startedAt: Date;
  finishedAt: Date;
  strict: boolean;
  version: string;
}

export function buildResults(cases: CaseResult[], requirements: Iterable<Requirement>, facts: RunFacts): Results {
  const summary = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const c of cases) summary[c.outcome]++;
  const requirementResults: RequirementResult[] = [...requirements].map((r) => {
    const citing = cases.filter((c) => c.requirements.includes(r.id) || c.failure?.requirement === r.id);
    return {
      id: r.id,
      level: r.level,
      source: r.source,
      quote: r.quote,
      cases: citing.map((c) => c.id),
      status: worstOutcome(citing.map((c) => c.outcome)) ?? 'UNTESTED',
    };
  });
  const failed = summary.FAIL > 0 || summary.ERROR > 0;
  return {
    format: 'touchstone-results/1',
    tool: { name: 'touchstone', version: facts.version },
    kind: facts.kind,
    target: facts.target,
    started_at: facts.startedAt.toISOString(),
    finished_at: facts.finishedAt.toISOString(),
    duration_ms: facts.finishedAt.getTime() - facts.startedAt.getTime(),
    strict: facts.strict,
    verdict: failed ? 'non-conforming' : 'conforming',
    summary: { ...summary, total: cases.length },
    requirements: requirementResults,
    cases,
  };
}
