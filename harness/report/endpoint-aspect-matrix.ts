// The endpoint × aspect view of a run: for every endpoint a case names and every aspect, the
// cases that touch both and the worst of their outcomes. Pure data, so the HTML report and
// anything else (a terminal summary, a dashboard) fold outcomes the same way.
import { worstOutcome } from '../core/outcome-order.js';
import { ASPECTS, type Aspect, type CaseResult, type Outcome } from '../core/results.js';

export interface MatrixCell {
  endpoint: string;
  aspect: Aspect;
  worst: Outcome;
  /** Indexes into the cases array the matrix was built from, in that order. */
  caseIndexes: number[];
  counts: Partial<Record<Outcome, number>>;
}

export interface EndpointAspectMatrix {
  /** Every distinct endpoint string, grouped by path, then by method in CRUD order. */
  endpoints: string[];
  aspects: readonly Aspect[];
  /** Undefined when no case has both the endpoint and the aspect. */
  cell(endpoint: string, aspect: Aspect): MatrixCell | undefined;
}

/** The key HTML data-cell attributes use: "GET /x|status". */
export function matrixCellKey(endpoint: string, aspect: Aspect): string {
  return `${endpoint}|${aspect}`;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function splitEndpoint(endpoint: string): { method: string; path: string } {
  const space = endpoint.indexOf(' ');
  return space < 0 ? { method: '', path: endpoint } : { method: endpoint.slice(0, space), path: endpoint.slice(space + 1) };
}

function methodRank(method: string): number {
  const rank = METHOD_ORDER.indexOf(method.toUpperCase());
  return rank < 0 ? METHOD_ORDER.length : rank;
}

// A reader scans for a resource, then for what was done to it, so group by path first.
function compareEndpoints(a: string, b: string): number {
  const x = splitEndpoint(a);
  const y = splitEndpoint(b);
  if (x.path !== y.path) return x.path < y.path ? -1 : 1;
  return methodRank(x.method) - methodRank(y.method) || (x.method < y.method ? -1 : x.method > y.method ? 1 : 0);
}

// A case that failed at one endpoint says nothing bad about the others it touched on the way.
function outcomeAt(c: CaseResult, endpoint: string): Outcome {
  const failedElsewhere = c.failure?.endpoint !== undefined && c.failure.endpoint !== endpoint;
  return failedElsewhere && (c.outcome === 'FAIL' || c.outcome === 'WARN' || c.outcome === 'XFAIL') ? 'PASS' : c.outcome;
}

export function buildEndpointAspectMatrix(cases: readonly CaseResult[]): EndpointAspectMatrix {
  const indexesByKey = new Map<string, number[]>();
  const endpoints = new Set<string>();
  cases.forEach((c, index) => {
    for (const endpoint of new Set(c.endpoints)) {
      endpoints.add(endpoint);
      for (const aspect of new Set(c.aspects)) {
        const key = matrixCellKey(endpoint, aspect);
        indexesByKey.set(key, [...(indexesByKey.get(key) ?? []), index]);
      }
    }
  });

  return {
    endpoints: [...endpoints].sort(compareEndpoints),
    aspects: ASPECTS,
    cell(endpoint, aspect) {
      const caseIndexes = indexesByKey.get(matrixCellKey(endpoint, aspect));
      if (!caseIndexes) return undefined;
      const outcomes = caseIndexes.map((i) => outcomeAt(cases[i]!, endpoint));
      const counts: Partial<Record<Outcome, number>> = {};
      for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
      return { endpoint, aspect, worst: worstOutcome(outcomes)!, caseIndexes, counts };
    },
  };
}
