// Types of the compiler suites (suites/plugin/compiler/*.yaml): cases that run a compiler
// with protoc's command line against canned plugins the harness writes, then judge what
// the compiler sent and what it left on disk. compiler-suite.schema.json is the authority;
// the loader validates every file against it before these types apply.

/** One File of a canned response, as text (the suites need no raw bytes). */
export interface CannedFileSpec {
  name?: string;
  insertion_point?: string;
  content?: string;
}

/** What a canned plugin answers: a response, or text that is not one. */
export type CannedAnswer = { response: { error?: string; supported_features?: number; file?: CannedFileSpec[] } } | { stdout_text: string };

/**
 * One `--NAME_out` on the compiler's command line, served by a canned plugin
 * protoc-gen-NAME. Generators appear on the command line in the order listed.
 */
export type GeneratorSpec = CannedAnswer & {
  name: string;
  /** Output directory, relative to the compiler's working directory (default `out`). */
  out?: string;
  /** `--NAME_out=PARAMETER:DIR`. */
  out_parameter?: string;
  /** One `--NAME_opt=VALUE` each, after the `--NAME_out`. */
  opt?: string[];
  /** After writing its answer, the plugin exits with this status … */
  exit?: number;
  /** … or kills itself with this signal (e.g. SEGV). */
  signal?: string;
};

/** Checks of the request one canned plugin received; each maps to one requirement. */
export interface RequestExpectation {
  /** Whose request (default: the first generator). */
  generator?: string;
  /** compiler.request.file-to-generate: exactly these names, in any order (spec 3 gives none). */
  file_to_generate?: string[];
  /** compiler.request.file-to-generate-order: exactly these names, in this order. */
  file_to_generate_order?: string[];
  /** compiler.request.parameter: this parameter; null when none may be sent. */
  parameter?: string | null;
  /** compiler.request.topological-order */
  topological_order?: true;
  /** compiler.request.qualified-type-names */
  qualified_type_names?: true;
  /** compiler.request.proto-file-last */
  proto_file_last?: true;
  /** compiler.request.compiler-version */
  compiler_version?: true;
  /**
   * The requirement every request check of the case is judged under, instead of each
   * check's own: for a SHOULD or MAY case that pins one reading the spec leaves open
   * (protoc's --NAME_opt merging), whose parameter is then no MUST matter.
   */
  requirement?: string;
}

export interface CompilerExpectation {
  /** `any` where the spec leaves the exit status open (what a compiler does with a response the spec forbids). */
  exit: 'zero' | 'nonzero' | 'any';
  stderr?: 'nonempty';
  /** Each text must appear in stderr. */
  stderr_contains?: string[];
  /** The exact files under the output directories, keyed by path from the working directory. */
  output?: Record<string, string>;
  /** Files (paths from the working directory, as in `output`) that must not exist after the run. */
  not_written?: string[];
  /** compiler.apply.nothing-written-on-failure: no file at all in any output directory. */
  nothing_written?: true;
  request?: RequestExpectation;
}

export interface CompilerCase {
  id: string;
  title: string;
  /** Requirement ids (compiler.*); the first is the one a wrong exit, stderr, output or not_written is attributed to. */
  requirements: string[];
  /** The .proto files on the command line (relative to suites/plugin/fixtures), in order. */
  files: string[];
  generators: GeneratorSpec[];
  expect: CompilerExpectation;
}

export interface CompilerSuite {
  name: string;
  file: string;
  description?: string;
  cases: CompilerCase[];
}

/** The requirement each check is judged under; a case using a check must cite its id. */
export const CHECK_REQUIREMENT = {
  file_to_generate: 'compiler.request.file-to-generate',
  file_to_generate_order: 'compiler.request.file-to-generate-order',
  parameter: 'compiler.request.parameter',
  topological_order: 'compiler.request.topological-order',
  qualified_type_names: 'compiler.request.qualified-type-names',
  proto_file_last: 'compiler.request.proto-file-last',
  compiler_version: 'compiler.request.compiler-version',
  nothing_written: 'compiler.apply.nothing-written-on-failure',
  /** Judged in every case: a file or folder outside the output directories. */
  outside_output: 'compiler.apply.names-inside-output',
} as const;

/** The ids a case must cite for the checks it asks for. */
export function checkRequirementsOf(testCase: CompilerCase): string[] {
  const { request, nothing_written } = testCase.expect;
  const checks = Object.keys(request ?? {}).filter((key): key is keyof typeof CHECK_REQUIREMENT => key in CHECK_REQUIREMENT);
  const judgedUnder = request?.requirement ? (checks.length ? [request.requirement] : []) : checks.map((key) => CHECK_REQUIREMENT[key]);
  return [...judgedUnder, ...(nothing_written ? [CHECK_REQUIREMENT.nothing_written] : [])];
}
