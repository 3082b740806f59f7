// The compiler suites (suites/plugin/compiler/*.yaml): cases that run a compiler with protoc's
// command line against canned plugins the harness writes, then judge what the compiler sent
// and what it left on disk. Written once in TypeBox: the loader validates every file against
// compiler-suite.schema.json, generated from these (`npm run schemas`; see
// core/schema-document.ts), and the types are the schema's static types.
import { Type, type Static } from 'typebox';
import { anyType, constant, Definitions, nameMap, schemaFile, type SchemaFile } from '../core/schema-document.js';
import { caseIdentity, suiteFileSchema, type LoadedSuite } from './plugin-suite-format.js';

const compilerDefs = new Definitions();

/** One File of a canned response, as text (the suites need no raw bytes). */
const CannedFileSchema = Type.Object(
  { name: Type.Optional(Type.String()), insertion_point: Type.Optional(Type.String()), content: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export type CannedFileSpec = Static<typeof CannedFileSchema>;

const CannedResponseSchema = Type.Object(
  {
    error: Type.Optional(Type.String()),
    supported_features: Type.Optional(Type.Integer({ minimum: 0 })),
    file: Type.Optional(Type.Array(CannedFileSchema)),
  },
  { additionalProperties: false },
);

/** What a canned plugin answers: a response, or text that is not one (the generator's oneOf). */
export type CannedAnswer = { response: Static<typeof CannedResponseSchema> } | { stdout_text: string };

const GeneratorObjectSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z][a-z0-9_]*$', description: 'NAME of protoc-gen-NAME and --NAME_out' }),
    /** Output directory, relative to the compiler's working directory (default `out`). */
    out: Type.Optional(compilerDefs.define('outDir', Type.String({ pattern: '^[a-z][a-z0-9_-]*$' }))),
    /** `--NAME_out=PARAMETER:DIR`. */
    out_parameter: Type.Optional(Type.String({ minLength: 1, pattern: '^[^:]*$' })),
    /** One `--NAME_opt=VALUE` each, after the `--NAME_out`. */
    opt: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** After writing its answer, the plugin exits with this status … */
    exit: Type.Optional(Type.Integer({ minimum: 1, maximum: 255 })),
    /** … or kills itself with this signal (e.g. SEGV). */
    signal: Type.Optional(Type.Enum(['SEGV', 'KILL', 'ABRT', 'TERM'])),
    stdout_text: Type.Optional(Type.String()),
    response: Type.Optional(CannedResponseSchema),
  },
  { additionalProperties: false, oneOf: [{ required: ['response'] }, { required: ['stdout_text'] }] },
);

/**
 * One `--NAME_out` on the compiler's command line, served by a canned plugin
 * protoc-gen-NAME. Generators appear on the command line in the order listed. The schema's
 * oneOf makes exactly one of `response` and `stdout_text` present, which the type says as a union.
 */
export type GeneratorSpec = Omit<Static<typeof GeneratorObjectSchema>, 'response' | 'stdout_text'> & CannedAnswer;

const Generator = Type.Unsafe<GeneratorSpec>(compilerDefs.define('generator', GeneratorObjectSchema));

/** A file's path from the compiler's working directory: an output directory, then a path in it. */
const OUTPUT_PATH_PATTERN = '^[a-z][a-z0-9_-]*/[^\\\\]+$';

/** Checks of the request one canned plugin received; each maps to one requirement. */
const RequestExpectationSchema = Type.Object(
  {
    /** Whose request (default: the first generator). */
    generator: Type.Optional(Type.String()),
    /** compiler.request.file-to-generate: exactly these names, in any order (spec 3 gives none). */
    file_to_generate: Type.Optional(Type.Array(Type.String(), { description: 'exactly these names, in any order' })),
    /** compiler.request.file-to-generate-order: exactly these names, in this order. */
    file_to_generate_order: Type.Optional(Type.Array(Type.String(), { description: 'exactly these names, in this order' })),
    /**
     * The requirement every request check of the case is judged under, instead of each
     * check's own: for a SHOULD or MAY case that pins one reading the spec leaves open
     * (protoc's --NAME_opt merging), whose parameter is then no MUST matter.
     */
    requirement: Type.Optional(
      Type.String({
        pattern: '^compiler\\.',
        description:
          'the requirement every request check of the case is judged under instead of its own (a SHOULD or MAY case pinning one reading)',
      }),
    ),
    /** compiler.request.parameter: this parameter; null when none may be sent. */
    parameter: Type.Optional(anyType(['string', 'null'])),
    /** compiler.request.topological-order */
    topological_order: Type.Optional(constant(true)),
    /** compiler.request.qualified-type-names */
    qualified_type_names: Type.Optional(constant(true)),
    /** compiler.request.proto-file-last */
    proto_file_last: Type.Optional(constant(true)),
    /** compiler.request.compiler-version */
    compiler_version: Type.Optional(constant(true)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type RequestExpectation = Static<typeof RequestExpectationSchema>;

const CompilerExpectationSchema = compilerDefs.define(
  'expect',
  Type.Object(
    {
      /** `any` where the spec leaves the exit status open (what a compiler does with a response the spec forbids). */
      exit: Type.Enum(['zero', 'nonzero', 'any'], { description: 'any: the spec leaves the exit status open' }),
      stderr: Type.Optional(constant('nonempty')),
      /** Each text must appear in stderr. */
      stderr_contains: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
      /** Files under the output directories and their exact contents, keyed by path from the working directory (others may be there too). */
      output: Type.Optional(nameMap(Type.String(), { propertyNames: { pattern: OUTPUT_PATH_PATTERN } })),
      /** Files (paths from the working directory, as in `output`) that must not exist after the run. */
      not_written: Type.Optional(
        Type.Array(Type.String({ pattern: OUTPUT_PATH_PATTERN }), {
          minItems: 1,
          description: 'files (paths from the working directory, as in output) that must not exist after the run',
        }),
      ),
      /** compiler.apply.nothing-written-on-failure: no file at all in any output directory. */
      nothing_written: Type.Optional(constant(true)),
      /** compiler.run.plugins-started: every generator's plugin was started and sent a request. */
      plugins_started: Type.Optional(constant(true)),
      request: Type.Optional(RequestExpectationSchema),
    },
    { additionalProperties: false },
  ),
);

export type CompilerExpectation = Static<typeof CompilerExpectationSchema>;

/** A compiler case: the first requirement is the one a wrong exit, stderr_contains, output or not_written is attributed to. */
const CompilerCaseSchema = Type.Object(
  {
    ...caseIdentity('compiler'),
    /**
     * What must have happened before the case's checks mean anything: `plugins-started`, every
     * generator's plugin was started (its canned plugin saved a request); `none` for the case
     * that judges exactly that. When it does not hold, the case is not reached.
     */
    precondition: Type.Enum(['none', 'plugins-started']),
    /** The .proto files on the command line (relative to suites/plugin/fixtures), in order. */
    files: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_./-]*\\.proto$' }), { minItems: 1 }),
    generators: Type.Array(Generator, { minItems: 1 }),
    expect: CompilerExpectationSchema,
  },
  { additionalProperties: false },
);

/** A compiler case as the loader hands it on: as written, plus `judgedBy` (see PluginCase). */
export type CompilerCase = Static<typeof CompilerCaseSchema> & { judgedBy?: string };

const CompilerSuiteFileSchema = suiteFileSchema(CompilerCaseSchema);

export type CompilerSuite = Omit<LoadedSuite<typeof CompilerSuiteFileSchema>, 'cases'> & { cases: CompilerCase[] };

export const compilerSuiteSchemaFile: SchemaFile = schemaFile(
  'harness/plugin/compiler-suite.schema.json',
  { $id: 'touchstone:compiler-suite', title: 'touchstone compiler suite (suites/plugin/compiler/*.yaml)' },
  CompilerSuiteFileSchema,
  compilerDefs,
);

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
  /** `stderr: nonempty`: spec 3 names no channel for a failure, so a SHOULD of its own. */
  stderr: 'compiler.apply.failure-said',
  plugins_started: 'compiler.run.plugins-started',
  /** Judged in every case: a file or folder outside the output directories. */
  outside_output: 'compiler.apply.names-inside-output',
} as const;

/** The ids a case must cite for the checks it asks for. */
export function checkRequirementsOf(testCase: CompilerCase): string[] {
  const { request, nothing_written, plugins_started, stderr } = testCase.expect;
  const checks = Object.keys(request ?? {}).filter((key): key is keyof typeof CHECK_REQUIREMENT => key in CHECK_REQUIREMENT);
  const judgedUnder = request?.requirement ? (checks.length ? [request.requirement] : []) : checks.map((key) => CHECK_REQUIREMENT[key]);
  return [
    ...judgedUnder,
    ...(nothing_written ? [CHECK_REQUIREMENT.nothing_written] : []),
    ...(stderr ? [CHECK_REQUIREMENT.stderr] : []),
    ...(plugins_started ? [CHECK_REQUIREMENT.plugins_started] : []),
  ];
}
