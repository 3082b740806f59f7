// The declarative formats under suites/: requirement registry entries and service suites,
// written once in TypeBox: the loaders validate every file against the JSON Schemas generated
// from these (requirement.schema.json, suite.schema.json; `npm run schemas`), and the types
// are the schemas' static types.
import { Type, type Static } from 'typebox';
import { BASES, LEVELS } from './results.js';
import type { Aspect } from './results.js';
import { schemaDocument, type SchemaFile } from './schema-document.js';

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

export const requirementsSchemaFile: SchemaFile = {
  path: 'harness/suite/requirement.schema.json',
  document: schemaDocument(
    { $id: 'touchstone:requirements', title: 'touchstone requirement registry file (suites/requirements/*.yaml)' },
    Type.Array(RequirementSchema, { minItems: 1 }),
  ),
};

/** An endpoint's id in suites/endpoints (`area.name`), as requests name it. */
export const ENDPOINT_ID_PATTERN = '^[a-z][a-z0-9-]*\\.[a-z][a-z0-9-]*$';

/** Scalar values in requests may contain ${capture} references. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface RequestSpec {
  method: string;
  /** Endpoint template as in the spec, e.g. /repos/{owner}/{repo}/assignees. Absent when `url` is given. */
  path?: string;
  /**
   * A URL to request instead of an endpoint: usually `${location}` captured from a redirect.
   * Relative URLs resolve against the target; on another origin no Authorization is sent.
   */
  url?: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  /** Header overrides; null removes a default header (user-agent, accept). $TOKEN stands for the role's token. */
  headers?: Record<string, string | null>;
  body?: Json;
  /** Raw body text sent as-is (for malformed input cases). */
  raw?: string;
  /** Grows the JSON body with a `padding` string field to this many bytes (oversized-input cases). */
  pad_to_bytes?: number;
  /** Acts as another role for this request only. */
  as?: string;
}

/** What an archive entry must be: `path` as stored (a directory's trailing / optional). */
export interface ArchiveEntryExpectation {
  path: string;
  type?: 'file' | 'directory' | 'symlink' | 'link';
  /** Symlink or hard-link target. */
  target?: string;
  size?: number | string;
  /** Hex, or `sha256:<hex>`. */
  sha256?: string;
  git_blob_sha?: string;
}

/** Checks of the body as bytes (downloads, raw contents, archives). */
export interface BytesExpectation {
  size?: number | string;
  /** Hex, or `sha256:<hex>`. */
  sha256?: string;
  /** Git's blob object id of the bytes: SHA-1 of `blob <size>\0` + bytes. */
  git_blob_sha?: string;
  /** The body, read as UTF-8, is exactly this text. */
  text?: string;
  /** The body, read as UTF-8, matches this regular expression. */
  matches?: string;
  /** The body, read as UTF-8, contains none of these texts (a secret that must not come back). */
  excludes?: string[];
  archive?: {
    /** `tar`: a tar, gunzipped first when its bytes start as gzip does (either is a "tar archive"). */
    format: 'zip' | 'tar.gz' | 'tar';
    /**
     * Leading path segments removed before matching, like `tar --strip-components` (a top folder
     * named after a commit); `auto` removes one when every entry sits under the same single folder.
     */
    strip?: number | 'auto';
    /** Exact number of entries (files, directories, links). */
    count?: number;
    /** Entries that must be present, each with what is given of it. */
    entries?: ArchiveEntryExpectation[];
  };
}

export type HeaderExpectation = string | { present?: boolean; matches?: string };

export interface Assertion {
  path: string;
  equals?: Json;
  includes?: Json;
  excludes?: Json;
  length?: number;
  max_length?: number;
  /** The value is a string matching this regular expression. */
  matches?: string;
  /** The value is a list of numbers or strings in this order (equal neighbours allowed). */
  sorted?: 'ascending' | 'descending';
  /** The value is a list of strings, each matching this regular expression. */
  each_matches?: string;
  /** The value is a list each of whose items is one of these. */
  /** The value is one of these. */
  one_of?: Json[];
  /** The value is a number at most this ("${name}" for a captured one). */
  at_most?: number | string;
  /** The value is a number at least this ("${name}" for a captured one). */
  at_least?: number | string;
  /**
   * The value is a list holding exactly these items, each as often, in any order (for lists whose
   * order the spec does not give); an object item matches one holding at least its fields.
   */
  members?: Json[];
  /**
   * The value is a timestamp (ISO 8601 with a zone) of this instant, or of one of these: compared
   * as instants, so `Z`, `+00:00` and fractions of a second all match (the format has checks of its own).
   */
  instant?: string | string[];
  each_in?: Json[];
  /** The value is a list of numbers, each at most this (a number, or a captured one as "${name}"). */
  each_at_most?: number | string;
  /** The value is a list of numbers summing to this. */
  sum?: number | string;
  /** The value is a list of numbers summing to at least this. */
  sum_at_least?: number | string;
  /** The requirement this assertion checks, when not the step's (a failure cites it). */
  requirement?: string;
}

/** A status, or a class such as "4xx". */
export type StatusRule = number | string;

export interface Expectation {
  status?: StatusRule | StatusRule[];
  headers?: Record<string, HeaderExpectation>;
  /** Schema name from suites/schemas/ (NAME.json); NAME[] for an array of them. */
  schema?: string;
  /** Deep subset the JSON body must contain. */
  json?: Json;
  /** The body is empty: no bytes, or an empty JSON object. */
  empty?: boolean;
  bytes?: BytesExpectation;
  assert?: Assertion[];
  /** name -> body path (body.x.y), header.NAME or bytes.size|sha256|git_blob_sha; later steps use ${name}. */
  capture?: Record<string, string>;
}

export interface RequestStep {
  name?: string;
  request: RequestSpec;
  expect: Expectation;
  /** Requirement a failure of this step is attributed to (default: the case's first). */
  requirement?: string;
}

export interface ClockStep {
  clock: { advance_seconds?: number; set?: string };
}

/** Failures the target injects into its own operations (capability control.failures): `{storage: 1}`, `{internal: 1}`. */
export interface InjectStep {
  inject: { storage?: number; internal?: number; maintenance?: number };
}

/**
 * The same request sent `count` times at once (`${i}` is each copy's number, 1…count):
 * exactly one must get status `one`, every other one of `rest`.
 */
export interface ParallelStep {
  parallel: {
    count: number;
    request: RequestSpec;
    /** `at_most_one`: no copy need get `one` (all may get `rest`), but never two. */
    expect: { one: number; rest: number | number[]; at_most_one?: boolean };
    /** Binds this name to the number `i` of the copy that got `one`. */
    capture?: string;
  };
  requirement?: string;
}

export type Step = RequestStep | ClockStep | InjectStep | ParallelStep;

interface CaseBase {
  id: string;
  title: string;
  requirements: string[];
  /** Role the requests act as; `anonymous` sends no Authorization. */
  as?: string;
  /** Target capabilities the case needs (control.clock, control.reset); SKIP without. */
  requires?: string[];
  aspects?: Aspect[];
  /** Steps run after the case whatever its outcome, to restore the world on targets without reset. */
  cleanup?: RequestStep[];
}

export interface StepsCase extends CaseBase {
  kind?: 'steps';
  steps: Step[];
}

export interface AuthMatrixCase extends CaseBase {
  kind: 'auth-matrix';
  /** Sent once per row; `${role}` is the row's role (a resource of its own for a creating request). */
  request: RequestSpec;
  /** role -> expected status */
  expect_by_role: Record<string, StatusRule | StatusRule[]>;
}

export interface PaginationCase extends CaseBase {
  kind: 'pagination';
  request: RequestSpec;
  per_page: { default: number; max: number; default_requirement?: string; max_requirement?: string };
  items: {
    key: string;
    total: number;
    includes?: Json[];
    /** Path of the items in a wrapped list (`artifacts` for `{total_count, artifacts}`); absent for a bare array. */
    path?: string;
    /** Path of the total in a wrapped list (default `total_count`), checked on every page against the items walked. */
    count?: string;
  };
}

export interface LimitsCase extends CaseBase {
  kind: 'limits';
  limit: number;
  /** Values for $list: the first n are used for n = limit-1, limit, limit+1. */
  list: Json[];
  request: RequestSpec;
  expect: { below: Expectation; at: Expectation; above: Expectation };
  /** Steps run after each variant (with the same $list and ${n}). */
  verify?: RequestStep[];
}

export type Case = StepsCase | AuthMatrixCase | PaginationCase | LimitsCase;

/** One area's cases: every YAML file in its folder under suites/service, in file-name order. */
export interface Suite {
  /** The area: the folder's name (what `--suite` selects, and the first part of a case's key). */
  name: string;
  dir: string;
  cases: Case[];
  /** The file each case comes from, by case id (for messages that send the user to it). */
  fileOf: ReadonlyMap<string, string>;
}
