// Reads a YAML or JSON data file and validates it against a JSON Schema (2020-12).
// Every data format of touchstone goes through here, so a bad file always fails the
// same way: a HarnessError naming the file, the line and column (YAML), and the JSON path
// of each problem, e.g. `suites/service/x/x.yaml:12:7: /cases/3/title must be string`.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describeSchemaErrors, parseLocatedYaml, YamlSyntaxError, type LineOf, type Locate } from '../../lib/located-yaml.js';
import { HarnessError } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Strict mode catches schema mistakes (unknown keywords, types that do not fit). Only
 * strictRequired is off: a oneOf/if branch that requires a property declared by the
 * enclosing object is the usual way to say "one of these shapes", and Ajv's check looks
 * at the branch alone. Union types (`"type": ["string", "number"]`) are allowed.
 */
export function createAjv(overrides: { strict?: boolean } = {}): Ajv2020 {
  return addFormats(new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, ...overrides }));
}

export function compileSchemaFile(ajv: Ajv2020, schemaPath: string): ValidateFunction {
  return ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
}

export function parseDataText(text: string, file: string): unknown {
  return parseLocated(text, file).data;
}

/** The data, and for YAML a way to put line and column on a schema error. */
function parseLocated(text: string, file: string): { data: unknown; locate?: Locate; lineOf?: LineOf } {
  if (file.endsWith('.json')) {
    try {
      return { data: JSON.parse(text) };
    } catch (error) {
      throw new HarnessError('CONFIG', `${file}: not valid JSON: ${(error as Error).message}`);
    }
  }
  try {
    return parseLocatedYaml(text);
  } catch (error) {
    if (!(error instanceof YamlSyntaxError)) throw error;
    throw new HarnessError('CONFIG', `${file}${error.at ? `:${error.at}` : ''}: not valid YAML: ${error.message}`);
  }
}

function readText(file: string, flag?: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw flag
      ? new HarnessError('USAGE', `${flag} ${file}: ${(error as Error).message}`)
      : new HarnessError('CONFIG', `${file}: cannot read: ${(error as Error).message}`);
  }
}

/** Reads and parses a data file; `flag` names the option that pointed at it, for a usage error. */
export function readDataFile(file: string, flag?: string): unknown {
  return parseDataText(readText(file, flag), file);
}

/** The file's data once its schema holds; the schema is the authority for the type T. */
export function readValidatedFile<T>(file: string, validate: ValidateFunction): T {
  return readLocatedFile<T>(file, validate).data;
}

/** As readValidatedFile, with the line each value starts on (YAML; a JSON file knows no lines). */
export function readLocatedFile<T>(file: string, validate: ValidateFunction): { data: T; lineOf: LineOf } {
  const { data, locate, lineOf } = parseLocated(readText(file), file);
  if (!validate(data)) {
    throw new HarnessError('CONFIG', `${file}: invalid: ${describeSchemaErrors(validate.errors, locate)}`);
  }
  return { data: data as T, lineOf: lineOf ?? (() => undefined) };
}
