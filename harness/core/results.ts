// The results.json contract: written by the conformance reporter, read by every renderer
// (HTML, JUnit, Markdown) and by the CLI to choose its exit code. Schema: results.schema.json,
// generated from the TypeBox schemas below.
import { Type, type Static } from 'typebox';
import { constant, Definitions, described, pair, schemaFile, type SchemaFile } from './schema-document.js';

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
/** Which side of an interface a run judges. */
export const RUN_KINDS = ['service', 'plugin', 'compiler'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const ASPECTS = ['status', 'schema', 'pagination', 'limits', 'auth', 'state'] as const;
export type Aspect = (typeof ASPECTS)[number];

// results.json is written once, here, in TypeBox: the types below are the schema's static
// types, and results.schema.json (published in package.json's exports) is generated from them
// (`npm run schemas`; see core/schema-document.ts).
const resultsDefs = new Definitions();

const Count = resultsDefs.define('count', Type.Integer({ minimum: 0 }));
const Strings = resultsDefs.define('strings', Type.Array(Type.String()));
const Sha256 = resultsDefs.define('sha256', Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }));
const LevelSchema = resultsDefs.define('level', Type.Enum(LEVELS));
const OutcomeSchema = resultsDefs.define('outcome', Type.Enum(OUTCOMES));

/** A message's headers as name-value pairs, in the order and case they were sent. */
const Headers = resultsDefs.define('headers', Type.Array(pair(Type.String(), Type.String())));

export type HeaderPairs = Static<typeof Headers>;

const ExchangeSchema = resultsDefs.define(
  'exchange',
  Type.Object(
    {
      request: Type.Object(
        { method: Type.String(), url: Type.String(), headers: Headers, body: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
      /** Absent when the request never got an answer (connection refused, timeout). */
      response: Type.Optional(
        Type.Object({ status: Type.Integer(), headers: Headers, body: Type.Optional(Type.String()) }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  ),
);

export type ExchangeRecord = Static<typeof ExchangeSchema>;

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

const FailureSchema = resultsDefs.define(
  'failure',
  Type.Object(
    {
      /** The requirement the failing check enforces. */
      requirement: Type.String(),
      /** The role the request that showed it acted as (an auth matrix's row), when the check sent one. */
      role: Type.Optional(Type.String({ description: "the role the request acted as (an auth matrix's row)" })),
      /** "METHOD /template" of the request that showed the failure; other endpoints of the case held. */
      endpoint: Type.Optional(Type.String()),
      expected: Type.String(),
      actual: Type.String(),
      /** The exchange that showed the failure, already redacted. */
      exchange: Type.Optional(ExchangeSchema),
      /** A copy-paste reproduction; tokens appear as $TOKEN. */
      reproduce: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
);

export type FailureDetail = Static<typeof FailureSchema>;

/**
 * One row of an auth matrix: the role, what its token is (as the world describes it: kind,
 * whose, scopes or permissions), the status the requirement forces for it and the one that
 * came back. A row whose role has no token did not run (SKIP, no status).
 */
const MatrixRowSchema = Type.Object(
  {
    role: Type.String(),
    token: Type.String(),
    expected: Type.String(),
    status: Type.Optional(Type.Integer()),
    outcome: Type.Enum(['PASS', 'FAIL', 'WARN', 'SKIP']),
  },
  { additionalProperties: false },
);

export type MatrixRow = Static<typeof MatrixRowSchema>;

/** What a case, or some rows of it, could not run without: role tokens, target capabilities. */
const MissingSchema = resultsDefs.define(
  'missing',
  Type.Object({ roles: Type.Optional(Strings), capabilities: Type.Optional(Strings) }, { additionalProperties: false, minProperties: 1 }),
);

export type Missing = Static<typeof MissingSchema>;

/** Where a case is written: its suite file, relative to touchstone's root, and the line its entry starts on. */
const CaseSourceSchema = Type.Object(
  { file: Type.String({ minLength: 1 }), line: Type.Integer({ minimum: 1 }) },
  {
    additionalProperties: false,
    description: "where the case is written: its suite file (relative to touchstone's root, / separated) and the line its entry starts on",
  },
);

export type CaseSource = Static<typeof CaseSourceSchema>;

const CaseResultSchema = Type.Object(
  {
    /** "<suite>/<case-id>" */
    id: Type.String(),
    source: Type.Optional(CaseSourceSchema),
    /** The command that runs this case again against the same target (cases other than PASS). */
    rerun: Type.Optional(
      Type.String({ description: 'the command that runs this case again against the same target (cases other than PASS)' }),
    ),
    suite: Type.String(),
    title: Type.String(),
    outcome: OutcomeSchema,
    level: LevelSchema,
    requirements: Type.Array(Type.String(), { minItems: 1 }),
    /** "GET /repos/{owner}/{repo}/assignees" */
    endpoints: Type.Array(Type.String()),
    aspects: Type.Array(Type.Enum(ASPECTS)),
    /** The role a steps case acts as; an auth matrix has none of its own, its rows are in `matrix`. */
    role: Type.Optional(Type.String({ description: "the role a steps case acts as; an auth matrix's rows are in matrix" })),
    /** When the case started (ISO 8601), and how long it took. */
    started_at: Type.String({ format: 'date-time' }),
    duration_ms: Type.Number({ minimum: 0 }),
    /** Present for every outcome other than PASS, and for a PASS whose rows did not all run. */
    message: Type.Optional(Type.String()),
    /** The check that decided the outcome: the MUST that failed, or the first SHOULD or MAY broken in a WARN case. */
    failure: Type.Optional(described(FailureSchema, 'the check that decided the outcome')),
    /** Every broken check, in the order found (`failure` among them): none is summed up as "and N more". */
    failures: Type.Optional(Type.Array(FailureSchema, { description: 'every broken check in the order found, failure among them' })),
    /** An auth matrix's rows, each with its role and token, in the order they ran; every row runs even after one breaks. */
    matrix: Type.Optional(
      Type.Array(MatrixRowSchema, {
        description: "an auth matrix's rows in the order they ran: role, what its token is, the status expected and the one answered",
      }),
    ),
    /** Every requirement a check of this case found broken, the failure's first. */
    broken: Type.Optional(Strings),
    /**
     * Requirements the case cites but did not get to check although it ran: it stopped at a
     * failure, or ran only some of its rows. (A SKIP or ERROR case checked none of them.)
     * They count as untested unless another case checked them.
     */
    unverified: Type.Optional(Strings),
    /** Why the case (SKIP) or some of its rows (a partial PASS) could not run. */
    missing: Type.Optional(MissingSchema),
    /**
     * A SKIP whose precondition did not hold (plugin and compiler cases): what happened instead,
     * and the case that judges that. The case checked none of its requirements.
     */
    not_reached: Type.Optional(
      Type.Object(
        {
          cause: Type.String({ description: 'what happened instead of the precondition: the refusal, once' }),
          judged_by: Type.Optional(Type.String({ description: 'the case (<suite>/<id>) that judges that refusal' })),
        },
        {
          additionalProperties: false,
          description: 'a SKIP whose precondition did not hold: what happened instead, and the case that judges it',
        },
      ),
    ),
    /** When a --baseline entry changed the outcome: the entry's list and reason, and the outcome and message before. */
    baseline: Type.Optional(
      Type.Object(
        {
          list: Type.Enum(['known', 'flaky']),
          reason: Type.String(),
          was: OutcomeSchema,
          was_message: Type.Optional(Type.String()),
        },
        {
          additionalProperties: false,
          description: 'when a --baseline entry changed the outcome: its list and reason, and the outcome and message before',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    if: { properties: { outcome: { not: { const: 'PASS' } } } },
    then: { required: ['message'] },
  },
);

export type CaseResult = Static<typeof CaseResultSchema>;

/** What is known of a case before it runs: who it is, what it checks, where. */
export type CaseFacts = Pick<CaseResult, 'id' | 'source' | 'suite' | 'title' | 'level' | 'requirements' | 'endpoints' | 'aspects' | 'role'>;

/** When a case ran and for how long. */
export type CaseTiming = Pick<CaseResult, 'started_at' | 'duration_ms'>;

/** What a run of a case of any kind (service, plugin, compiler) found. */
export type CaseOutcome = Pick<
  CaseResult,
  'outcome' | 'message' | 'failure' | 'failures' | 'matrix' | 'broken' | 'unverified' | 'missing' | 'not_reached'
>;

/**
 * PASS, FAIL, WARN, XFAIL, ERROR when a case checked it; UNTESTED when none did (no case, or
 * every case skipped or stopped before it). Never SKIP: a skipped case checked nothing.
 */
export const REQUIREMENT_STATUSES = ['PASS', 'FAIL', 'WARN', 'ERROR', 'XFAIL', 'UNTESTED'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

const RequirementResultSchema = Type.Object(
  {
    id: Type.String(),
    level: LevelSchema,
    basis: Type.Enum(BASES, {
      description:
        "quoted: the spec's words force it; choice: the spec is silent or open and the reference's reading is recorded (SHOULD or MAY only); convention: of HTTP or this API family",
    }),
    source: Type.String(),
    quote: Type.String(),
    /** Hash of `quote`: a requirement whose text changed between two runs flags its cases when they are compared. */
    quote_sha256: described(Sha256, 'hash of quote: a changed requirement text flags its cases in comparisons'),
    cases: Type.Array(Type.String()),
    status: Type.Enum(REQUIREMENT_STATUSES),
    /** For an UNTESTED requirement whose cases could not run: what they lacked. */
    missing: Type.Optional(MissingSchema),
    /** Kill-matrix runs only: the built-in faults that break this requirement, and the cases that caught each. */
    faults: Type.Optional(Type.Array(Type.Object({ id: Type.String(), caught_by: Strings }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);

export type RequirementResult = Static<typeof RequirementResultSchema>;

export const VERDICTS = ['conforming', 'incomplete', 'non-conforming'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * What kept a run from being conforming without any MUST failure: MUST requirements no
 * case checked, the roles and capabilities the skipped rows and cases lacked, and the cases
 * that errored. Empty lists on a complete run.
 */
const GapsSchema = Type.Object(
  {
    untested: described(Strings, 'MUST requirements in scope that no case checked'),
    roles: described(Strings, 'roles a skipped case or matrix row had no token for'),
    capabilities: described(Strings, 'capabilities a skipped case needed and the target lacks'),
    errors: described(Strings, 'cases in ERROR'),
    /** Cases whose precondition did not hold (each says why, and which case judges it). */
    not_reached: Type.Optional(described(Strings, 'cases whose precondition did not hold: each says why, and which case judges it')),
    /**
     * The target has no control.reset: each case ran on the state the cases before it left (their
     * cleanup steps undo what they change, but a case that stops half way may not). Not a reason
     * for "incomplete": said so that a failure it may explain is read with it. Present only when true.
     */
    shared_state: Type.Optional(
      constant(true, {
        description:
          'present when the target has no control.reset: cases ran on the state earlier cases left (a note, not a reason for incomplete)',
      }),
    ),
  },
  { additionalProperties: false, description: 'why a run without a MUST failure is not conforming' },
);

export type Gaps = Static<typeof GapsSchema>;

/** How much of something a run covered. */
const RatioSchema = resultsDefs.define('ratio', Type.Object({ covered: Count, total: Count }, { additionalProperties: false }));

export type Ratio = Static<typeof RatioSchema>;

/**
 * What the run covered: requirements in scope it checked; endpoints, and endpoint × aspect
 * pairs, that its cases exercise and that a case which ran (not SKIP, not ERROR) exercised.
 */
const CoverageSchema = Type.Object(
  { requirements: RatioSchema, endpoints: RatioSchema, endpoint_aspects: RatioSchema },
  {
    additionalProperties: false,
    description:
      'what the run covered: requirements in scope checked; endpoints and endpoint x aspect pairs its cases exercise, covered when a case that ran (not SKIP or ERROR) exercised them',
  },
);

export type Coverage = Static<typeof CoverageSchema>;

/**
 * The origin recordings store the target's URLs under (cassette-format.ts), and what a replay
 * reports as its target when no --target names the real one. `.invalid` never resolves
 * (RFC 2606), so an exported URL or a curl line can never reach a real host.
 */
export const RECORDED_ORIGIN = 'http://target.invalid';

/**
 * A run through recordings (--record or --replay): `record` judged the target and saved its
 * answers into `folder`; `replay` judged what `folder` holds and contacted nothing. `folder`
 * is as the user gave it, so reports name it the way they know it.
 */
const RecordingsSchema = Type.Object(
  { mode: Type.Enum(['record', 'replay']), folder: Type.String({ minLength: 1 }) },
  {
    additionalProperties: false,
    description:
      "a run through recordings: record saved the target's answers into folder, replay judged what folder holds and contacted no target",
  },
);

export type Recordings = Static<typeof RecordingsSchema>;

/** What the run was judged by (harness/core/fingerprint.ts): two runs compare cleanly when these agree. */
const FingerprintSchema = Type.Object(
  {
    /** The suites, endpoint catalogue, schemas and world (everything under suites/ but requirements, faults and variants). */
    suites: described(Sha256, 'everything under suites/ but the requirements, faults and variants'),
    /** The requirement registry (suites/requirements). */
    requirements: described(Sha256, 'the requirement registry'),
    /** The run's configuration: kind, strictness, scope (not the shard), the roles given tokens, the baseline. Not the target, nor what it can do: two implementations judged alike share it. */
    config: described(Sha256, 'kind, strictness, scope (not the shard), roles given tokens, baseline; not the target'),
  },
  {
    additionalProperties: false,
    description: 'content hashes of what the run was judged by; two runs compare cleanly when they agree',
  },
);

export type Fingerprint = Static<typeof FingerprintSchema>;

const ResultsSchema = Type.Object(
  {
    format: constant('touchstone-results/2'),
    tool: Type.Object({ name: constant('touchstone'), version: Type.String() }, { additionalProperties: false }),
    fingerprint: FingerprintSchema,
    kind: Type.Enum(RUN_KINDS),
    /**
     * `url`: the service's base URL, or the plugin or compiler command. Behind the record proxy
     * it is the real target, never the proxy's passing port; in a replay, which contacts no
     * target, it is the --target the recordings were named for, else RECORDED_ORIGIN
     * the origin recordings are stored with.
     */
    target: Type.Object(
      {
        url: Type.String({
          description:
            "the service's base URL (the real target when recording; in a replay the --target named, else http://target.invalid), or the plugin or compiler command",
        }),
        embedded: Type.Boolean(),
        recordings: Type.Optional(RecordingsSchema),
        /** Plugin runs: what the plugin was given besides the cases' own (--parameter, --proto). */
        plugin: Type.Optional(
          Type.Object(
            {
              parameter: Type.Optional(Type.String({ description: 'the --parameter every built request carried' })),
              proto: Type.Optional(Type.Array(Type.String(), { description: 'the --proto files, as file_to_generate names them' })),
            },
            { additionalProperties: false, description: 'plugin runs: what the plugin was given besides the cases (--parameter, --proto)' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    started_at: Type.String({ format: 'date-time' }),
    finished_at: Type.String({ format: 'date-time' }),
    duration_ms: Type.Number({ minimum: 0 }),
    strict: Type.Boolean(),
    /**
     * conforming: every MUST requirement in scope was checked and held. incomplete: nothing
     * failed, but a MUST requirement went unchecked or a case errored (see gaps).
     * non-conforming: a MUST requirement is broken (FAIL, or XFAIL through a baseline).
     */
    verdict: Type.Enum(VERDICTS, {
      description:
        'conforming: every MUST requirement in scope checked and held; incomplete: nothing failed, but a MUST requirement went unchecked or a case errored (see gaps); non-conforming: a MUST requirement is broken',
    }),
    /** Suites the run was narrowed to with --suite; empty for every suite of its kind. */
    scope: Type.Object(
      {
        suites: Type.Array(Type.String(), { description: 'the suites of --suite; empty for all' }),
        only: Type.Optional(Type.Array(Type.String(), { description: 'the cases of --only (<suite>/<case id>), when given' })),
        grep: Type.Optional(Type.String({ description: 'the pattern of --grep, when given' })),
        grep_invert: Type.Optional(Type.String({ description: 'the pattern of --grep-invert, when given' })),
        shard: Type.Optional(
          Type.String({
            description: 'the part of --shard (i/n), when the run was one part of a sharded run',
            pattern: '^[1-9][0-9]*/[1-9][0-9]*$',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    gaps: GapsSchema,
    coverage: CoverageSchema,
    summary: Type.Object(
      {
        PASS: Count,
        FAIL: Count,
        WARN: Count,
        SKIP: Count,
        ERROR: Count,
        XFAIL: Count,
        total: Count,
      },
      { additionalProperties: false },
    ),
    requirements: Type.Array(RequirementResultSchema),
    cases: Type.Array(CaseResultSchema),
  },
  { additionalProperties: false },
);

export type Results = Static<typeof ResultsSchema>;

export const resultsSchemaFile: SchemaFile = schemaFile(
  'harness/report/results.schema.json',
  { $id: 'touchstone:results', title: 'touchstone results.json' },
  ResultsSchema,
  resultsDefs,
);
