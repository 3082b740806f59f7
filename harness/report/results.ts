// The results.json contract: written by the conformance reporter, read by every renderer
// (HTML, JUnit, Markdown) and by the CLI to choose its exit code. Schema: results.schema.json.

export const OUTCOMES = ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'XFAIL'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export type Level = 'MUST' | 'SHOULD' | 'MAY';
export const ASPECTS = ['status', 'schema', 'pagination', 'limits', 'auth', 'state'] as const;
export type Aspect = (typeof ASPECTS)[number];

export type HeaderPairs = [string, string][];

export interface ExchangeRecord {
  request: { method: string; url: string; headers: HeaderPairs; body?: string };
  /** Absent when the request never got an answer (connection refused, timeout). */
  response?: { status: number; headers: HeaderPairs; body?: string };
}

export interface FailureDetail {
  /** The requirement the failing check enforces. */
  requirement: string;
  /** "METHOD /template" of the request that showed the failure; other endpoints of the case held. */
  endpoint?: string;
  expected: string;
  actual: string;
  /** The exchange that showed the failure, already redacted. */
  exchange?: ExchangeRecord;
  /** A copy-paste reproduction; tokens appear as $TOKEN. */
  reproduce?: string;
}

export interface CaseResult {
  id: string; // "<suite>/<case-id>"
  suite: string;
  title: string;
  outcome: Outcome;
  level: Level;
  requirements: string[];
  endpoints: string[]; // "GET /repos/{owner}/{repo}/assignees"
  aspects: Aspect[];
  role?: string;
  duration_ms: number;
  /** Present for every outcome other than PASS. */
  message?: string;
  failure?: FailureDetail;
}

export interface RequirementResult {
  id: string;
  level: Level;
  source: string;
  quote: string;
  cases: string[];
  /** Worst outcome among its cases, or UNTESTED when no case cites it. */
  status: Outcome | 'UNTESTED';
}

export interface Results {
  format: 'touchstone-results/1';
  tool: { name: 'touchstone'; version: string };
  kind: 'service' | 'plugin' | 'compiler';
  target: { url: string; embedded: boolean };
  started_at: string;
  finished_at: string;
  duration_ms: number;
  strict: boolean;
  verdict: 'conforming' | 'non-conforming';
  summary: Record<Outcome, number> & { total: number };
  requirements: RequirementResult[];
  cases: CaseResult[];
}
