// The plugin suites (suites/plugin/*.yaml), written once in TypeBox: the loader validates every
// file against plugin-suite.schema.json, generated from these (`npm run schemas`; see
// core/schema-document.ts), and the types are the schema's static types. The shape every
// suite file of a plugin or compiler shares (a description, cases with an id, a title and the
// requirements they check) is written here once for both.
import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { constant, oneOf, schemaFile, type SchemaFile } from '../core/schema-document.js';

/** The properties every plugin or compiler case starts with; its requirement ids start with `prefix`. */
export function caseIdentity(prefix: 'plugin' | 'compiler') {
  return {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' }),
    title: Type.String({ minLength: 10 }),
    /** Requirement ids; the first is the one a failure of the case's own checks is attributed to. */
    requirements: Type.Array(Type.String({ pattern: `^${prefix}\\.` }), { minItems: 1 }),
  };
}

/** A suite file: an optional description and at least one case. */
export function suiteFileSchema<C extends TSchema>(testCase: C) {
  return Type.Object(
    { description: Type.Optional(Type.String()), cases: Type.Array(testCase, { minItems: 1 }) },
    { additionalProperties: false },
  );
}

/** A loaded suite: the file's contents, named after the file. */
export type LoadedSuite<S extends TObject<TProperties>> = Static<S> & { name: string; file: string };

/**
 * Written as a request's only file, stands for the files the user gave with --proto: a request
 * naming it is built from those, and a case or request naming it is left out of a run without
 * --proto (plugin-suite-loader.ts).
 */
export const OWN_FILES = '{proto}';

/** file_to_generate: fixture files, relative to suites/plugin/fixtures (or OWN_FILES). */
const FixtureFilesSchema = Type.Array(
  Type.String({
    pattern: '^([A-Za-z0-9_][A-Za-z0-9_./-]*|\\{proto\\})$',
    description:
      'fixture files relative to suites/plugin/fixtures (normally .proto; a compiler accepts any name), or {proto}: the files of --proto',
  }),
  { minItems: 1 },
);

/** A request built from fixture .proto files the way a compiler builds it. */
const PluginRequestSchema = Type.Object(
  {
    files: FixtureFilesSchema,
    /** Merged with --parameter, as protoc merges --NAME_out's parameter and --NAME_opt. */
    parameter: Type.Optional(Type.String()),
    /** Adds fields this spec does not list, as a newer compiler sends them. */
    unknown_fields: Type.Optional(Type.Boolean()),
    /** Writes the proto_file entries before the other fields (legal on the wire). */
    proto_file_first: Type.Optional(Type.Boolean()),
    /** Cuts the encoded request inside its last proto_file entry. */
    truncate: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type PluginRequestSpec = Static<typeof PluginRequestSchema>;

/**
 * What goes on the plugin's stdin: a built request, text, raw bytes in hex, or (the case that
 * judges refusals of sound requests) several sound requests, one run each.
 */
const PluginInputSchema = oneOf([
  Type.Object({ request: PluginRequestSchema }, { additionalProperties: false }),
  Type.Object(
    { sound_requests: Type.Array(Type.Object({ files: FixtureFilesSchema }, { additionalProperties: false }), { minItems: 1 }) },
    { additionalProperties: false },
  ),
  Type.Object({ text: Type.String() }, { additionalProperties: false }),
  Type.Object({ hex: Type.String({ pattern: '^([0-9a-fA-F]{2})*$' }) }, { additionalProperties: false }),
]);

export type PluginInput = Static<typeof PluginInputSchema>;

/**
 * What must have happened before a case's checks mean anything (plugin-checks.ts):
 * - none: the case judges whatever the plugin answers;
 * - answers: the plugin answers the case's request, built without its bends (unknown fields,
 *   field order, the case's parameter), with exit 0 and a response;
 * - generates: the same, and the response generates files (no error, at least one file);
 * - { answers: files }: the plugin answers a sound request for these files (for a case whose
 *   own request is not sound).
 * When it does not hold, the case is not reached: its requirements stay unchecked, and the
 * refusal is judged by the case whose sound_requests hold that request.
 */
const PreconditionSchema = oneOf([
  Type.Enum(['none', 'answers', 'generates']),
  Type.Object({ answers: FixtureFilesSchema }, { additionalProperties: false }),
]);

export type Precondition = Static<typeof PreconditionSchema>;

const PluginExpectationSchema = Type.Object(
  {
    exit: Type.Optional(Type.Enum(['zero', 'nonzero'])),
    stderr: Type.Optional(constant('nonempty')),
    /** stdout is a CodeGeneratorResponse and every File in it is well-formed (see plugin-checks.ts). */
    response: Type.Optional(constant('valid')),
    /** A second run with the same bytes gives the same stdout. */
    deterministic: Type.Optional(constant(true)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type PluginExpectation = Static<typeof PluginExpectationSchema>;

/** A plugin case: the first requirement is the one a failure of `exit` or `stderr` is attributed to. */
const PluginCaseSchema = Type.Object(
  { ...caseIdentity('plugin'), precondition: PreconditionSchema, input: PluginInputSchema, expect: PluginExpectationSchema },
  { additionalProperties: false },
);

/**
 * A plugin case as the loader hands it on: as written, plus `judgedBy` for a case with a
 * precondition, the "<suite>/<id>" of the case whose sound_requests judge its refusal.
 */
export type PluginCase = Static<typeof PluginCaseSchema> & { judgedBy?: string };

const PluginSuiteFileSchema = suiteFileSchema(PluginCaseSchema);

export type PluginSuite = Omit<LoadedSuite<typeof PluginSuiteFileSchema>, 'cases'> & { cases: PluginCase[] };

export const pluginSuiteSchemaFile: SchemaFile = schemaFile(
  'harness/plugin/plugin-suite.schema.json',
  { $id: 'touchstone:plugin-suite', title: 'touchstone plugin suite (suites/plugin/*.yaml)' },
  PluginSuiteFileSchema,
);
