// The on-disk format of a recorded plugin session (`touchstone plugin --record DIR`):
//
//   DIR/session.json                          { format, version: 1, command, limits, parameter? }
//   DIR/<suite>/<case-id>/run-<n>.request.bin the exact bytes written on the plugin's stdin
//   DIR/<suite>/<case-id>/run-<n>.stdout.bin  the exact bytes the plugin wrote on stdout
//   DIR/<suite>/<case-id>/run-<n>.json        readable form (readable-run.ts) + sha256 of both .bin
//
// n counts from 1, as the report's "run 1", "run 2" attachments do. Why this shape:
// - Bytes are the truth (replay feeds them back exactly); the .json is for people and diffs,
//   and its sha256 pair catches a .bin that was edited or damaged without the .json.
// - One folder per case, so re-recording a case replaces it whole (no stale run-2 left
//   behind) and a review diff groups by case.
// - No timestamps or durations anywhere: recording the same plugin twice gives identical
//   directories, so a recording committed to a repository only changes when the plugin does.
// - session.json keeps the limits the plugin ran under, not only the command: a recorded
//   timeout must replay with the timeout it actually had in its message.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { Type, type Static } from 'typebox';
import { HarnessError } from '../core/errors.js';
import { anyType, constant, Definitions, schemaFile, type SchemaFile } from '../core/schema-document.js';
import { createAjv, parseDataText } from '../core/validated-file.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';
import type { ReadableMessage, UndecodableBytes } from '../protocol/readable-form.js';
import { projectPath } from '../../lib/project-files.js';

export const SESSION_FORMAT = 'touchstone-plugin-session';
export const SESSION_VERSION = 1;
export const SESSION_FILE = 'session.json';

// session.json and run-<n>.json are written once, here, in TypeBox: plugin-session.schema.json
// (its two $defs, one for each file) is generated from these (`npm run schemas`; see
// core/schema-document.ts) and the types are the schema's static types.
const sessionDefs = new Definitions();

/** The bounds every run of a session was made under. */
const SessionLimitsSchema = Type.Object(
  { timeoutMs: Type.Number({ exclusiveMinimum: 0 }), maxOutputBytes: Type.Number({ exclusiveMinimum: 0 }) },
  { additionalProperties: false },
);

export type SessionLimits = Static<typeof SessionLimitsSchema>;

const SessionManifestSchema = Type.Object(
  {
    format: constant(SESSION_FORMAT),
    version: constant(SESSION_VERSION),
    /** The plugin command split into words, as it was run. */
    command: Type.Array(Type.String(), { minItems: 1 }),
    limits: SessionLimitsSchema,
    /** --parameter, when the session was recorded with one: every built request carried it. */
    parameter: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
sessionDefs.define('session', SessionManifestSchema);

export type SessionManifest = Static<typeof SessionManifestSchema>;

/**
 * The decoded request or response (readable-form.ts). The schema says only "an object": the
 * decoded form follows the protocol's messages, which the .bin files hold exactly and the
 * sha256 pair pins, so the type is the decoder's (Type.Unsafe) rather than a second copy of it.
 */
const ReadableBytes = () => Type.Unsafe<ReadableMessage | UndecodableBytes>({ type: 'object' });

const RecordedRunSchema = Type.Object(
  {
    request: ReadableBytes(),
    response: ReadableBytes(),
    exit: Type.Object(
      {
        code: anyType(['integer', 'null']),
        signal: anyType(['string', 'null'], { pattern: '^SIG[A-Z0-9]+$' }),
        timedOut: Type.Boolean(),
        truncated: Type.Boolean(),
        spawnError: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    /** stderr as text when it is valid UTF-8 … */
    stderr: Type.Optional(Type.String()),
    /** … else its bytes, so nothing is silently replaced by U+FFFD. */
    stderr_base64: Type.Optional(Type.String({ contentEncoding: 'base64' })),
    sha256: Type.Object(
      { request: Type.String({ pattern: '^[0-9a-f]{64}$' }), stdout: Type.String({ pattern: '^[0-9a-f]{64}$' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, oneOf: [{ required: ['stderr'] }, { required: ['stderr_base64'] }] },
);
sessionDefs.define('run', RecordedRunSchema);

export type RecordedRun = Static<typeof RecordedRunSchema>;

export const pluginSessionSchemaFile: SchemaFile = schemaFile(
  'harness/plugin/plugin-session.schema.json',
  {
    $id: 'touchstone:plugin-session',
    title: 'touchstone recorded plugin session (session.json and run-<n>.json; see plugin-session-format.ts)',
  },
  Type.Unsafe({}),
  sessionDefs,
);

const SCHEMA = projectPath(pluginSessionSchemaFile.path);

export interface RunFiles {
  request: string;
  stdout: string;
  json: string;
}

/**
 * Suite names and case ids are validated where they are read, but they become path
 * segments here: anything that is not a plain name (a separator, `..`, empty) is refused
 * rather than trusted, so a session can never write or read outside its directory.
 */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function plainSegment(value: string, what: string): string {
  if (!PLAIN_NAME.test(value)) {
    throw new HarnessError(
      'CONFIG',
      `${what} ${JSON.stringify(value)} cannot name a folder of a plugin session: only letters, digits, "_", "." and "-" are allowed, and it must not start with "." or "-"`,
    );
  }
  return value;
}

export const caseFolder = (dir: string, suite: string, caseId: string): string =>
  path.join(dir, plainSegment(suite, 'suite'), plainSegment(caseId, 'case id'));

/**
 * Where a case's runs are recorded until the case reaches an outcome: beside its folder, a name
 * no case id can have (it starts with a dot), which replay never reads.
 */
export const stagingFolder = (dir: string, suite: string, caseId: string): string =>
  path.join(path.dirname(caseFolder(dir, suite, caseId)), `.${caseId}.partial`);

export function runFiles(dir: string, suite: string, caseId: string, run: number): RunFiles {
  return runFilesIn(caseFolder(dir, suite, caseId), run);
}

/** The files of run `run` in a case's folder (or its staging folder). */
export function runFilesIn(folder: string, run: number): RunFiles {
  const base = path.join(folder, `run-${run}`);
  return { request: `${base}.request.bin`, stdout: `${base}.stdout.bin`, json: `${base}.json` };
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The one serialisation of every .json of a session: stable, diffable, newline-terminated. */
export const sessionJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export interface SessionFormat {
  /** Parses session.json text; `file` names it in errors. */
  parseManifest(text: string, file: string): SessionManifest;
  parseRun(text: string, file: string): RecordedRun;
}

/** Compiles the schema once; a session holds one. */
export function createSessionFormat(): SessionFormat {
  const ajv = createAjv();
  ajv.addSchema(JSON.parse(readFileSync(SCHEMA, 'utf8')));
  const validator = (name: string): ValidateFunction => ajv.getSchema(`touchstone:plugin-session#/$defs/${name}`)!;
  const validateManifest = validator('session');
  const validateRun = validator('run');
  return {
    parseManifest(text, file) {
      const data = parseDataText(text, file);
      const head = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
      if (head.format !== SESSION_FORMAT)
        throw new HarnessError('CONFIG', `${file}: not a recorded plugin session (its "format" is not "${SESSION_FORMAT}")`);
      // The version gate comes before the schema: a newer recording deserves "too new", not a list of schema errors.
      if (head.version !== SESSION_VERSION)
        throw new HarnessError(
          'CONFIG',
          `${file}: version ${JSON.stringify(head.version)} of the plugin session format is not supported (this touchstone reads version ${SESSION_VERSION})`,
        );
      if (!validateManifest(data)) throw new HarnessError('CONFIG', `${file}: invalid: ${describeSchemaErrors(validateManifest.errors)}`);
      return data as SessionManifest;
    },
    parseRun(text, file) {
      const data = parseDataText(text, file);
      if (!validateRun(data)) throw new HarnessError('CONFIG', `${file}: invalid: ${describeSchemaErrors(validateRun.errors)}`);
      return data as RecordedRun;
    },
  };
}
