// The declarative formats under suites/: requirement registry entries and service suites,
// written once in TypeBox: the loaders validate every file against the JSON Schemas generated
// from these (requirement.schema.json, suite.schema.json; `npm run schemas`), and the types
// are the schemas' static types.
import { Type, type Static, type TArrayOptions, type TObject, type TObjectOptions, type TProperties, type TUnsafe } from 'typebox';
import { ASPECTS, BASES, LEVELS } from './results.js';
import { anyType, constant, Definitions, nameMap, oneOf, schemaFile, type SchemaFile } from './schema-document.js';

export const RequirementSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)+$' }),
    source: Type.String({ minLength: 3 }),
    quote: Type.String({ minLength: 3 }),
    level: Type.Enum(LEVELS),
    basis: Type.Enum(BASES, {
      description:
        "quoted: the spec's words force it; choice: the spec is silent or open and this records the reference's reading (SHOULD or MAY only; `note` says what was chosen); convention: a rule of HTTP or of this API family the spec takes for granted",
    }),
    /** Why a level was chosen, or which documented behaviour a MAY check pins. */
    note: Type.Optional(Type.String()),
  },
  {
    additionalProperties: false,
    // A choice is never MUST, and says what was chosen.
    if: { properties: { basis: { const: 'choice' } } },
    then: { properties: { level: { enum: ['SHOULD', 'MAY'] } }, required: ['note'] },
  },
);

export type Requirement = Static<typeof RequirementSchema>;

export const requirementsSchemaFile: SchemaFile = schemaFile(
  'harness/suite/requirement.schema.json',
  { $id: 'touchstone:requirements', title: 'touchstone requirement registry file (suites/requirements/*.yaml)' },
  Type.Array(RequirementSchema, { minItems: 1 }),
);

/** An endpoint's id in suites/endpoints (`area.name`), as requests name it. */
export const ENDPOINT_ID_PATTERN = '^[a-z][a-z0-9-]*\\.[a-z][a-z0-9-]*$';

/** Scalar values in requests may contain ${capture} references. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Any value (`{}`): what a YAML or JSON file holds there is JSON. */
const AnyJson = Type.Unsafe<Json>({});
/** A list of any values, with the given options (`{"type": "array"}`). */
const jsonList = (options: TArrayOptions = {}) => Type.Unsafe<Json[]>({ type: 'array', ...options });

const suiteDefs = new Definitions();

const Role = suiteDefs.define('role', Type.String({ pattern: '^[a-z][a-z0-9-]*$' }));
const CapturedValue = suiteDefs.define(
  'capturedValue',
  Type.String({ pattern: '^\\$\\{[A-Za-z0-9_-]+\\}$', description: 'a value captured by an earlier step' }),
);
const Size = suiteDefs.define('size', oneOf([Type.Integer({ minimum: 0 }), CapturedValue]));
const Sha256 = suiteDefs.define(
  'sha256',
  oneOf([Type.String({ pattern: '^(sha256:)?[0-9a-fA-F]{64}$' }), CapturedValue], {
    description: "hex, or sha256:<hex> (an artifact's digest)",
  }),
);
/** Git's blob object id of the bytes: SHA-1 of `blob <size>\0` + bytes. */
const GitSha = suiteDefs.define('gitSha', oneOf([Type.String({ pattern: '^[0-9a-fA-F]{40}$' }), CapturedValue]));
const HttpStatus = () => Type.Integer({ minimum: 100, maximum: 599 });
/** A status, or a class such as "4xx". */
const StatusRuleSchema = suiteDefs.define('statusRule', oneOf([HttpStatus(), Type.String({ pattern: '^[1-5]xx$' })]));
const Status = suiteDefs.define('status', oneOf([StatusRuleSchema, Type.Array(StatusRuleSchema, { minItems: 1 })]));

export type StatusRule = Static<typeof StatusRuleSchema>;

const RequestSchema = Type.Object(
  {
    endpoint: Type.Optional(Type.String({ pattern: ENDPOINT_ID_PATTERN })),
    method: Type.Optional(Type.Enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])),
    /** Endpoint template as in the spec, e.g. /repos/{owner}/{repo}/assignees. Absent when `url` is given. */
    path: Type.Optional(Type.String({ pattern: '^/' })),
    /**
     * A URL to request instead of an endpoint: usually `${location}` captured from a redirect.
     * Relative URLs resolve against the target; on another origin no Authorization is sent.
     */
    url: Type.Optional(Type.String({ minLength: 1 })),
    params: Type.Optional(nameMap(Type.String())),
    query: Type.Optional(nameMap(anyType(['string', 'number']))),
    /** Header overrides; null removes a default header (user-agent, accept). $TOKEN stands for the role's token. */
    headers: Type.Optional(nameMap(anyType(['string', 'null']))),
    body: Type.Optional(AnyJson),
    /** Raw body text sent as-is (for malformed input cases). */
    raw: Type.Optional(Type.String()),
    /** Grows the JSON body with a `padding` string field to this many bytes (oversized-input cases). */
    pad_to_bytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 67108864 })),
    /** Acts as another role for this request only. */
    as: Type.Optional(Role),
  },
  {
    additionalProperties: false,
    description:
      "An endpoint of suites/endpoints/*.yaml by id; a method and a path template (for requests no endpoint describes: unknown routes, wrong methods); or a method and a url (a redirect's ${location}: relative to the target, and without Authorization on another origin)",
    oneOf: [
      { required: ['endpoint'], not: { anyOf: [{ required: ['method'] }, { required: ['path'] }, { required: ['url'] }] } },
      { required: ['method', 'path'], not: { required: ['url'] } },
      { required: ['method', 'url'], not: { anyOf: [{ required: ['path'] }, { required: ['params'] }] } },
    ],
    not: { required: ['body', 'raw'] },
  },
);
/** A request as written in a suite file: an endpoint id, or a method and a path or url. */
export type WrittenRequest = Static<typeof RequestSchema>;
/**
 * A request once the loader resolved it (endpoint-aliases.ts): an `endpoint` is replaced by
 * its method and path, so every request has a method.
 */
export type RequestSpec = Omit<WrittenRequest, 'endpoint' | 'method'> & { method: NonNullable<WrittenRequest['method']> };
/**
 * The types below are of a loaded suite: the loader resolves every written request before
 * anything else reads it, so where a case holds a request its static type is the resolved one.
 */
const Request = Type.Unsafe<RequestSpec>(suiteDefs.define('request', RequestSchema));

const HeaderExpectationSchema = oneOf([
  Type.String(),
  Type.Object(
    { present: Type.Optional(Type.Boolean()), matches: Type.Optional(Type.String()) },
    { additionalProperties: false, minProperties: 1 },
  ),
]);
export type HeaderExpectation = Static<typeof HeaderExpectationSchema>;

/** What an archive entry must be: `path` as stored (a directory's trailing / optional). */
const ArchiveEntrySchema = Type.Object(
  {
    path: Type.String({ minLength: 1 }),
    type: Type.Optional(Type.Enum(['file', 'directory', 'symlink', 'link'])),
    /** Symlink or hard-link target. */
    target: Type.Optional(Type.String()),
    size: Type.Optional(Size),
    sha256: Type.Optional(Sha256),
    git_blob_sha: Type.Optional(GitSha),
  },
  { additionalProperties: false },
);
export type ArchiveEntryExpectation = Static<typeof ArchiveEntrySchema>;

const BytesSchema = Type.Object(
  {
    size: Type.Optional(Size),
    sha256: Type.Optional(Sha256),
    git_blob_sha: Type.Optional(GitSha),
    text: Type.Optional(Type.String({ description: 'the body read as UTF-8 is exactly this' })),
    matches: Type.Optional(Type.String({ description: 'the body read as UTF-8 matches this regular expression' })),
    /** A secret that must not come back, say. */
    excludes: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'the body read as UTF-8 contains none of these texts (failures do not repeat them)',
      }),
    ),
    archive: Type.Optional(
      Type.Object(
        {
          /** Either is a "tar archive". */
          format: Type.Enum(['zip', 'tar.gz', 'tar'], { description: 'tar: a tar, gunzipped first when its bytes start as gzip does' }),
          /** (A top folder named after a commit, say.) */
          strip: Type.Optional(
            oneOf([Type.Integer({ minimum: 1 }), constant('auto')], {
              description:
                'leading path segments removed before matching, like tar --strip-components; auto removes one when every entry sits under the same single folder',
            }),
          ),
          /** Files, directories and links. */
          count: Type.Optional(Type.Integer({ minimum: 0, description: 'exact number of entries' })),
          entries: Type.Optional(
            Type.Array(ArchiveEntrySchema, { description: 'entries that must be present, each with what is given of it' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1, description: 'checks of the body as bytes: downloads, raw contents, archives' },
);
export type BytesExpectation = Static<typeof BytesSchema>;

const NumberOrCaptured = (description: string) => anyType(['number', 'string'], { description });

const AssertionSchema = Type.Object(
  {
    path: Type.String(),
    equals: Type.Optional(AnyJson),
    includes: Type.Optional(AnyJson),
    excludes: Type.Optional(AnyJson),
    length: Type.Optional(Type.Integer({ minimum: 0 })),
    max_length: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The value is a string matching this regular expression. */
    matches: Type.Optional(Type.String()),
    /** Equal neighbours allowed. */
    sorted: Type.Optional(
      Type.Enum(['ascending', 'descending'], { description: 'a list of numbers or strings in this order, e.g. path $[*].count' }),
    ),
    each_matches: Type.Optional(Type.String({ description: 'a list of strings, each matching this regular expression' })),
    each_in: Type.Optional(jsonList({ description: 'a list each of whose items is one of these' })),
    one_of: Type.Optional(jsonList({ minItems: 1, description: 'the value is one of these' })),
    at_most: Type.Optional(NumberOrCaptured('the value is a number at most this ("${name}" for a captured one)')),
    at_least: Type.Optional(NumberOrCaptured('the value is a number at least this ("${name}" for a captured one)')),
    /** An object item matches one holding at least its fields. */
    members: Type.Optional(
      jsonList({
        description: 'a list holding exactly these items, each as often, in any order (for lists whose order the spec does not give)',
      }),
    ),
    /** ISO 8601 with a zone; the format has checks of its own. */
    instant: Type.Optional(
      oneOf([Type.String(), Type.Array(Type.String(), { minItems: 1 })], {
        description:
          'a timestamp of this instant, or of one of these, compared as instants (Z, +00:00 and fractions of a second all match)',
      }),
    ),
    each_at_most: Type.Optional(NumberOrCaptured('a list of numbers, each at most this ("${name}" for a captured one)')),
    sum: Type.Optional(NumberOrCaptured('a list of numbers summing to this')),
    sum_at_least: Type.Optional(NumberOrCaptured('a list of numbers summing to at least this')),
    /** A failure cites it. */
    requirement: Type.Optional(Type.String({ description: "the requirement this assertion checks, when not the step's" })),
  },
  {
    additionalProperties: false,
    // At least one check besides the path.
    anyOf: [
      'equals',
      'includes',
      'excludes',
      'length',
      'max_length',
      'matches',
      'sorted',
      'each_matches',
      'each_in',
      'each_at_most',
      'sum',
      'sum_at_least',
      'one_of',
      'at_most',
      'at_least',
      'members',
      'instant',
    ].map((check) => ({ required: [check] })),
  },
);
export type Assertion = Static<typeof AssertionSchema>;

const ExpectationSchema = Type.Object(
  {
    status: Type.Optional(Status),
    headers: Type.Optional(nameMap(HeaderExpectationSchema)),
    /** Schema name from suites/schemas/ (NAME.json); NAME[] for an array of them. */
    schema: Type.Optional(Type.String({ pattern: '^[a-z0-9-]+(\\[\\])?$' })),
    /** Deep subset the JSON body must contain. */
    json: Type.Optional(AnyJson),
    /** The body is empty: no bytes, or an empty JSON object. */
    empty: Type.Optional(constant(true)),
    bytes: Type.Optional(BytesSchema),
    assert: Type.Optional(Type.Array(AssertionSchema)),
    /** name -> body path (body.x.y), header.NAME or bytes.size|sha256|git_blob_sha; later steps use ${name}. */
    capture: Type.Optional(nameMap(Type.String({ pattern: '^(body([.[].+)?|header\\..+|bytes\\.(size|sha256|git_blob_sha))$' }))),
  },
  { additionalProperties: false },
);
const ExpectationRef = suiteDefs.define('expectation', ExpectationSchema);
export type Expectation = Static<typeof ExpectationSchema>;

const RequestStepSchema = Type.Object(
  {
    name: Type.Optional(Type.String()),
    request: Request,
    expect: ExpectationRef,
    /** Requirement a failure of this step is attributed to (default: the case's first). */
    requirement: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const RequestStepRef = suiteDefs.define('requestStep', RequestStepSchema);

const ClockStepSchema = Type.Object(
  {
    clock: Type.Object(
      {
        advance_seconds: Type.Optional(Type.Integer({ minimum: 0 })),
        set: Type.Optional(
          Type.String({
            description: 'an instant, or a template of one naming captured values ("${until}T23:59:59Z")',
            anyOf: [{ format: 'date-time' }, { pattern: '\\$\\{' }],
          }),
        ),
      },
      { additionalProperties: false, minProperties: 1, maxProperties: 1 },
    ),
  },
  { additionalProperties: false },
);

/** Failures the target injects into its own operations (capability control.failures): `{storage: 1}`, `{internal: 1}`. */
const InjectStepSchema = Type.Object(
  {
    inject: Type.Object(
      {
        storage: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'next repository writes fail (503)' })),
        internal: Type.Optional(
          Type.Integer({ minimum: 0, maximum: 1000, description: 'next requests to the endpoints that list 500 fail (500)' }),
        ),
        maintenance: Type.Optional(
          Type.Integer({ minimum: 0, maximum: 1000, description: 'next source-import requests answer 503 (maintenance)' }),
        ),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
  },
  { additionalProperties: false, description: 'failures the target injects into its own next operations (capability control.failures)' },
);

/** `${i}` is each copy's number, 1…count. */
const ParallelStepSchema = Type.Object(
  {
    parallel: Type.Object(
      {
        count: Type.Integer({ minimum: 2, maximum: 20 }),
        request: Request,
        expect: Type.Object(
          {
            one: HttpStatus(),
            at_most_one: Type.Optional(Type.Boolean({ description: 'no copy need get one (all may get rest), but never two' })),
            rest: oneOf([HttpStatus(), Type.Array(HttpStatus(), { minItems: 1 })]),
          },
          { additionalProperties: false },
        ),
        capture: Type.Optional(
          Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'bound to the number of the copy that got one' }),
        ),
      },
      { additionalProperties: false },
    ),
    requirement: Type.Optional(Type.String()),
  },
  {
    additionalProperties: false,
    description: "the same request sent count times at once (${i} is each copy's number): exactly one gets one, the others rest",
  },
);

export type RequestStep = Static<typeof RequestStepSchema>;
export type ClockStep = Static<typeof ClockStepSchema>;
export type InjectStep = Static<typeof InjectStepSchema>;
export type ParallelStep = Static<typeof ParallelStepSchema>;

const Step = oneOf([
  RequestStepRef,
  suiteDefs.define('clockStep', ClockStepSchema),
  suiteDefs.define('injectStep', InjectStepSchema),
  suiteDefs.define('parallelStep', ParallelStepSchema),
]);
export type Step = Static<typeof Step>;

/** The target capabilities a case may need. */
export const CAPABILITIES = ['control.reset', 'control.clock', 'control.failures', 'control.key-rotation'] as const;
export type Capability = (typeof CAPABILITIES)[number];

const CaseBaseSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' }),
  title: Type.String({ minLength: 10 }),
  requirements: Type.Array(Type.String(), { minItems: 1 }),
  /** Role the requests act as; `anonymous` sends no Authorization. */
  as: Type.Optional(Role),
  /** Target capabilities the case needs (control.clock, control.reset); SKIP without. */
  requires: Type.Optional(Type.Array(Type.Enum(CAPABILITIES))),
  aspects: Type.Optional(Type.Array(Type.Enum(ASPECTS))),
  /** Steps run after the case whatever its outcome, to restore the world on targets without reset. */
  cleanup: Type.Optional(Type.Array(RequestStepRef)),
});
const CaseBase = suiteDefs.define('caseBase', CaseBaseSchema);

/**
 * One kind of case: the base's fields (checked by caseBase, named here so that
 * additionalProperties lets them through) and the kind's own.
 */
function caseKind<P extends TProperties>(
  properties: P,
  options: TObjectOptions = {},
): TUnsafe<Static<typeof CaseBaseSchema> & Static<TObject<P>>> {
  // The case itself says it is an object; its kinds only say what it holds.
  const { type: _object, ...own } = Type.Object(properties, options);
  const base = Object.fromEntries(Object.keys(CaseBaseSchema.properties).map((name) => [name, true]));
  return Type.Unsafe({ ...own, properties: { ...base, ...own.properties }, additionalProperties: false });
}

const StepsCaseSchema = caseKind({
  kind: Type.Optional(constant('steps')),
  steps: Type.Array(Step, { minItems: 1 }),
});

const AuthMatrixCaseSchema = caseKind({
  kind: constant('auth-matrix'),
  /** Sent once per row; `${role}` is the row's role (a resource of its own for a creating request). */
  request: Request,
  /** role -> expected status */
  expect_by_role: nameMap(Status, { minProperties: 2 }),
});

const PaginationCaseSchema = caseKind(
  {
    kind: constant('pagination'),
    request: Request,
    per_page: Type.Object(
      {
        default: Type.Integer({ minimum: 1 }),
        max: Type.Integer({ minimum: 1 }),
        default_requirement: Type.Optional(Type.String()),
        max_requirement: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    items: Type.Object(
      {
        key: Type.String(),
        total: Type.Integer({ minimum: 2 }),
        includes: Type.Optional(jsonList()),
        path: Type.Optional(
          Type.String({
            minLength: 1,
            description: 'where the items are in a wrapped list, e.g. artifacts for {total_count, artifacts}; absent for a bare array',
          }),
        ),
        /** Checked on every page. */
        count: Type.Optional(
          Type.String({
            minLength: 1,
            description: 'where the total is in a wrapped list (default total_count); checked against the items walked',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    // A count without the items' path names a total in a list that is not wrapped.
    if: { properties: { items: { type: 'object', required: ['count'] } } },
    then: { properties: { items: { type: 'object', required: ['path'] } } },
  },
);

const LimitsCaseSchema = caseKind({
  kind: constant('limits'),
  limit: Type.Integer({ minimum: 1 }),
  /** Values for $list: the first n are used for n = limit-1, limit, limit+1. */
  list: jsonList(),
  request: Request,
  expect: Type.Object({ below: ExpectationRef, at: ExpectationRef, above: ExpectationRef }, { additionalProperties: false }),
  /** Steps run after each variant (with the same $list and ${n}). */
  verify: Type.Optional(Type.Array(RequestStepRef)),
});

export type StepsCase = Static<typeof StepsCaseSchema>;
export type AuthMatrixCase = Static<typeof AuthMatrixCaseSchema>;
export type PaginationCase = Static<typeof PaginationCaseSchema>;
export type LimitsCase = Static<typeof LimitsCaseSchema>;

const CaseSchema = suiteDefs.define(
  'case',
  oneOf([StepsCaseSchema, AuthMatrixCaseSchema, PaginationCaseSchema, LimitsCaseSchema], { type: 'object', allOf: [CaseBase] }),
);
export type Case = Static<typeof CaseSchema>;

const SuiteFileSchema = Type.Object(
  {
    description: Type.Optional(Type.String()),
    params: Type.Optional(
      nameMap(Type.String(), {
        description: 'Path parameters every request of the suite uses unless it gives its own (only those its path template names)',
      }),
    ),
    cases: Type.Array(CaseSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);
/** A suite file as written: its requests not resolved yet (WrittenRequest). */
export type SuiteFile = Static<typeof SuiteFileSchema>;

export const suiteSchemaFile: SchemaFile = schemaFile(
  'harness/suite/suite.schema.json',
  { $id: 'touchstone:suite', title: 'touchstone service suite (suites/service/<area>/*.yaml)' },
  SuiteFileSchema,
  suiteDefs,
);

/** One area's cases: every YAML file in its folder under suites/service, in file-name order. */
export interface Suite {
  /** The area: the folder's name (what `--suite` selects, and the first part of a case's key). */
  name: string;
  dir: string;
  cases: Case[];
  /** The file each case comes from, by case id (for messages that send the user to it). */
  fileOf: ReadonlyMap<string, string>;
}
