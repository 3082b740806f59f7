// The results.json contract: written by the conformance reporter, read by every renderer
// (HTML, JUnit, Markdown) and by the CLI to choose its exit code. Schema: results.schema.json.

export const OUTCOMES = ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'XFAIL'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
export type Level = (typeof LEVELS)[number];
/**
 * Why a requirement says what it says: `quoted`, the spec's words force it; `choice`, the spec
 * is silent or open to several readings and touchstone records the reference's reading (never
 * at MUST); `convention`, a rule of HTTP or of this API family that the spec takes for granted.
 */
export const BASES = ['quoted', 'choice', 'convention'] as const;
export type Basis = (typeof BASES)[number];
export const ASPECTS = ['status', 'schema', 'pagination', 'limits', 'auth', 'state'] as const;
export type Aspect = (typeof ASPECTS)[number];

export type HeaderPairs = [string, string][];

export interface ExchangeRecord {
  request: { method: string; url: string; headers: HeaderPairs; body?: string };
  /** Absent when the request never got an answer (connection refused, timeout). */
  response?: { status: number; headers: HeaderPairs; body?: string };
}

/**
 * Where an implementation says which request it answered, most specific first: the service's
 * own header, then the names other servers use. Reports show it so a failure can be quoted
 * to whoever runs the implementation.
 */
const REQUEST_ID_HEADERS = ['x-service-request-id', 'x-request-id', 'request-id', 'x-correlation-id'];

/** The id the implementation gave the response of `exchange`, if it gave one. */
export function requestIdOf(exchange: ExchangeRecord | undefined): string | undefined {
  const headers = exchange?.response?.headers ?? [];
  for (const name of REQUEST_ID_HEADERS) {
    const found = headers.find(([key]) => key.toLowerCase() === name);
    if (found) return found[1];
  }
  return undefined;
}

export interface FailureDetail {
  /** The requirement the failing check enforces. */
  requirement: string;
  /** The role the request that showed it acted as (an auth matrix's row), when the check sent one. */
  role?: string;
  /** "METHOD /template" of the request that showed the failure; other endpoints of the case held. */
  endpoint?: string;
  expected: string;
  actual: string;
  /** The exchange that showed the failure, already redacted. */
  exchange?: ExchangeRecord;
  /** A copy-paste reproduction; tokens appear as $TOKEN. */
  reproduce?: string;
}

/**
 * One row of an auth matrix: the role, what its token is (as the world describes it: kind,
 * whose, scopes or permissions), the status the requirement forces for it and the one that
 * came back. A row whose role has no token did not run (SKIP, no status).
 */
export interface MatrixRow {
  role: string;
  token: string;
  expected: string;
  status?: number;
  outcome: 'PASS' | 'FAIL' | 'WARN' | 'SKIP';
}

/** What a case, or some rows of it, could not run without: role tokens, target capabilities. */
export interface Missing {
  roles?: string[];
  capabilities?: string[];
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
  /** The role a steps case acts as; an auth matrix has none of its own, its rows are in `matrix`. */
  role?: string;
  /** When the case started (ISO 8601), and how long it took. */
  started_at: string;
  duration_ms: number;
  /** Present for every outcome other than PASS, and for a PASS whose rows did not all run. */
  message?: string;
  /** The check that decided the outcome: the MUST that failed, or the first SHOULD or MAY broken in a WARN case. */
  failure?: FailureDetail;
  /** Every broken check, in the order found (`failure` among them): none is summed up as "and N more". */
  failures?: FailureDetail[];
  /** An auth matrix's rows, each with its role and token, in the order they ran; every row runs even after one breaks. */
  matrix?: MatrixRow[];
  /** The command that runs this case again against the same target (cases other than PASS). */
  rerun?: string;
  /** Every requirement a check of this case found broken, the failure's first. */
  broken?: string[];
  /**
   * Requirements the case cites but did not get to check although it ran: it stopped at a
   * failure, or ran only some of its rows. (A SKIP or ERROR case checked none of them.)
   * They count as untested unless another case checked them.
   */
  unverified?: string[];
  /** Why the case (SKIP) or some of its rows (a partial PASS) could not run. */
  missing?: Missing;
  /** When a --baseline entry changed the outcome: the entry's list and reason, and the outcome and message before. */
  baseline?: { list: 'known' | 'flaky'; reason: string; was: Outcome; was_message?: string };
}

/** What is known of a case before it runs: who it is, what it checks, where. */
export type CaseFacts = Pick<CaseResult, 'id' | 'suite' | 'title' | 'level' | 'requirements' | 'endpoints' | 'aspects' | 'role'>;

/** When a case ran and for how long. */
export type CaseTiming = Pick<CaseResult, 'started_at' | 'duration_ms'>;

/** What a run of a case of any kind (service, plugin, compiler) found. */
export type CaseOutcome = Pick<CaseResult, 'outcome' | 'message' | 'failure' | 'failures' | 'matrix' | 'broken' | 'unverified' | 'missing'>;

/** PASS, FAIL, WARN, XFAIL, ERROR when a case checked it; UNTESTED when none did (no case, or every case skipped or stopped before it). */
export type RequirementStatus = Outcome | 'UNTESTED';

export interface RequirementResult {
  id: string;
  level: Level;
  basis: Basis;
  source: string;
  quote: string;
  cases: string[];
  status: RequirementStatus;
  /** Hash of `quote`: a requirement whose text changed between two runs flags its cases when they are compared. */
  quote_sha256: string;
  /** For an UNTESTED requirement whose cases could not run: what they lacked. */
  missing?: Missing;
  /** Kill-matrix runs only: the built-in faults that break this requirement, and the cases that caught each. */
  faults?: { id: string; caught_by: string[] }[];
}

export const VERDICTS = ['conforming', 'incomplete', 'non-conforming'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * What kept a run from being conforming without any MUST failure: MUST requirements no
 * case checked, the roles and capabilities the skipped rows and cases lacked, and the cases
 * that errored. Empty lists on a complete run.
 */
export interface Gaps {
  untested: string[];
  roles: string[];
  capabilities: string[];
  errors: string[];
  /**
   * The target has no control.reset: each case ran on the state the cases before it left (their
   * cleanup steps undo what they change, but a case that stops half way may not). Not a reason
   * for "incomplete": said so that a failure it may explain is read with it. Present only when true.
   */
  shared_state?: true;
}

/** How much of something a run covered. */
export interface Ratio {
  covered: number;
  total: number;
}

/**
 * What the run covered: requirements in scope it checked; endpoints, and endpoint × aspect
 * pairs, that its cases exercise and that a case which ran (not SKIP, not ERROR) exercised.
 */
export interface Coverage {
  requirements: Ratio;
  endpoints: Ratio;
  endpoint_aspects: Ratio;
}

/**
 * The origin recordings store the target's URLs under (cassette-format.ts), and what a replay
 * reports as its target when no --target names the real one. `.invalid` never resolves
 * (RFC 2606), so an exported URL or a curl line can never reach a real host.
 */
export const RECORDED_ORIGIN = 'http://target.invalid';

export interface Results {
  format: 'touchstone-results/2';
  tool: { name: 'touchstone'; version: string };
  /** What the run was judged by (harness/core/fingerprint.ts): two runs compare cleanly when these agree. */
  fingerprint: Fingerprint;
  kind: 'service' | 'plugin' | 'compiler';
  /**
   * `url`: the service's base URL, or the plugin or compiler command. Behind the record proxy
   * it is the real target, never the proxy's passing port; in a replay, which contacts no
   * target, it is the --target the recordings were named for, else RECORDED_ORIGIN
   * the origin recordings are stored with.
   */
  target: { url: string; embedded: boolean; recordings?: Recordings };
  started_at: string;
  finished_at: string;
  duration_ms: number;
  strict: boolean;
  /**
   * conforming: every MUST requirement in scope was checked and held. incomplete: nothing
   * failed, but a MUST requirement went unchecked or a case errored (see gaps).
   * non-conforming: a MUST requirement is broken (FAIL, or XFAIL through a baseline).
   */
  verdict: Verdict;
  /** Suites the run was narrowed to with --suite; empty for every suite of its kind. */
  scope: { suites: string[]; only?: string[]; grep?: string; grep_invert?: string; shard?: string };
  gaps: Gaps;
  coverage: Coverage;
  summary: Record<Outcome, number> & { total: number };
  requirements: RequirementResult[];
  cases: CaseResult[];
}

/**
 * A run through recordings (--record or --replay): `record` judged the target and saved its
 * answers into `folder`; `replay` judged what `folder` holds and contacted nothing. `folder`
 * is as the user gave it, so reports name it the way they know it.
 */
export interface Recordings {
  mode: 'record' | 'replay';
  folder: string;
}

export interface Fingerprint {
  /** The suites, endpoint catalogue, schemas and world (everything under suites/ but requirements, faults and variants). */
  suites: string;
  /** The requirement registry (suites/requirements). */
  requirements: string;
  /** The run's configuration: kind, strictness, scope (not the shard), the roles given tokens, the baseline. Not the target, nor what it can do: two implementations judged alike share it. */
  config: string;
}

/** Which side of an interface a run judges. */
export type RunKind = 'service' | 'plugin' | 'compiler';
