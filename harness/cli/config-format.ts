// The config file, touchstone.config.{ts,mts,js,mjs,json} (config-file.ts finds and reads it),
// written once: its TypeScript type (TouchstoneConfig, what defineConfig takes) and its JSON
// Schema (touchstone.config.schema.json, `npm run schemas`, for editors of a .json file) are both
// this schema's.
//
// A key is a command-line option in camelCase (`--min-coverage` is `minCoverage`), in the section
// of the command it belongs to; the verdict options that run, plugin and compiler share may also
// stand at the top, for all three. config-file.test.ts holds every section to its command's
// options, so an option a command gains is a key here too (or the test fails).
import { type Static, type TSchema, Type } from 'typebox';
import { schemaFile, type SchemaFile } from '../core/schema-document.js';
import { COVERAGE_KINDS } from '../core/coverage.js';
import { EXHAUSTION_POLICIES, LOG_LEVELS, PROXY_MODES, RECORD_MODES } from '../proxy/proxy-options.js';

const text = Type.String();
/** A repeatable option: one value or several. */
const texts = Type.Union([text, Type.Array(text)]);
const flag = Type.Boolean();
/** Seconds, a count or a port: a number, or a string as the command line would take it. */
const amount = Type.Union([Type.Number(), text]);
const number = Type.Number();

/** The keys shared by every conformance run (run, plugin, compiler): how its results become a verdict and reports. */
const VERDICT = {
  out: text,
  /** --reporter: 'junit,github' or ['html', 'github'] (names checked when the command runs, with a did-you-mean). */
  reporter: texts,
  strict: flag,
  allowIncomplete: flag,
  baseline: text,
  /** 90 (every kind), 'requirements=90', or { requirements: 90, endpoints: 80 }. */
  minCoverage: Type.Union([
    amount,
    Type.Array(text),
    Type.Object(Object.fromEntries(Object.keys(COVERAGE_KINDS).map((kind) => [kind, Type.Optional(number)])), {
      additionalProperties: false,
    }),
  ]),
};

const CLIENT_TIMEOUTS = { headTimeout: number, requestTimeout: number, idleTimeout: number };

/** A section: every key optional, no other key. */
const section = <P extends Record<string, TSchema>>(properties: P) =>
  Type.Partial(Type.Object(properties, { additionalProperties: false }));

/** --suite, --only, --grep, --grep-invert: which cases run. */
const SELECTION = { suite: texts, only: texts, grep: text, grepInvert: text };

/** --last-failed, of the commands that run cases. */
const LAST_FAILED = { lastFailed: flag };

const PROTOCOL = { ...SELECTION, ...LAST_FAILED, workers: number, shard: text, timeout: number, maxOutput: number, ...VERDICT };

/** Each configurable command's section; CONFIG_COMMANDS lists them. */
const SECTIONS = {
  run: section({
    target: texts,
    workers: number,
    shard: text,
    tokens: text,
    ...SELECTION,
    ...LAST_FAILED,
    requestTimeout: amount,
    caseTimeout: amount,
    maxFailures: amount,
    record: text,
    recordMode: Type.Enum([...RECORD_MODES]),
    replay: text,
    skipUnrecorded: flag,
    preflight: flag,
    ...VERDICT,
  }),
  plugin: section({ plugin: text, parameter: text, proto: texts, protoPath: texts, record: text, replay: text, ...PROTOCOL }),
  compiler: section({ compiler: text, ...PROTOCOL }),
  proxy: section({
    mode: Type.Enum([...PROXY_MODES]),
    recordMode: Type.Enum([...RECORD_MODES]),
    target: text,
    cassette: text,
    port: number,
    host: text,
    secrets: text,
    /** The proxy's match and redaction rules file (its --config). */
    config: text,
    exhausted: Type.Enum([...EXHAUSTION_POLICIES]),
    missStatus: number,
    failOnMiss: flag,
    failOnUnused: flag,
    failOnDiff: flag,
    log: Type.Enum([...LOG_LEVELS]),
    allowRemote: flag,
    ...CLIENT_TIMEOUTS,
  }),
  serve: section({
    port: number,
    host: text,
    world: text,
    fault: texts,
    variant: texts,
    trustProxy: text,
    importWebhook: text,
    ...CLIENT_TIMEOUTS,
  }),
  mutate: section({ side: texts, target: text, out: text, fault: texts, variant: texts, suite: texts }),
};

export const CONFIG_COMMANDS = Object.keys(SECTIONS) as (keyof typeof SECTIONS)[];
export type ConfigCommand = (typeof CONFIG_COMMANDS)[number];

/**
 * The keys that name files or folders: relative to the config file's folder, as Playwright reads
 * its config. Not `proto`: its files are named as protoc names its inputs, under a protoPath.
 */
export const PATH_KEYS: ReadonlySet<string> = new Set([
  'protoPath',
  'out',
  'baseline',
  'tokens',
  'record',
  'replay',
  'cassette',
  'secrets',
  'config',
  'world',
]);

/** The top: the shared verdict keys, and a section per command. */
const ConfigSchema = section({ $schema: text, ...VERDICT, ...SECTIONS });

/** What touchstone.config.ts exports (as its default), through defineConfig. */
export type TouchstoneConfig = Static<typeof ConfigSchema>;

/** The config as written, checked by TypeScript where the file is TypeScript: `export default defineConfig({…})`. */
export function defineConfig(config: TouchstoneConfig): TouchstoneConfig {
  return config;
}

export const configSchemaFile: SchemaFile = schemaFile(
  'harness/cli/touchstone.config.schema.json',
  {
    $id: 'https://touchstone.dev/schemas/touchstone.config.schema.json',
    title: 'touchstone configuration (touchstone.config.json)',
    description:
      'Defaults for the options of touchstone run, plugin, compiler, proxy, serve and mutate: a key is an option in camelCase, in its command\u2019s section (the verdict options may stand at the top, for run, plugin and compiler). Flags and TOUCHSTONE_* variables override it.',
  },
  ConfigSchema,
);
