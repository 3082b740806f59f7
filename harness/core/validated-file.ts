// Reads a YAML or JSON data file and validates it against a JSON Schema (2020-12).
// Every data format of touchstone goes through here, so a bad file always fails the
// same way: a HarnessError naming the file and the JSON path of each problem.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { HarnessError } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function createAjv(): Ajv2020 {
  return addFormats(new Ajv2020({ allErrors: true, strict: false }));
}

export function compileSchemaFile(ajv: Ajv2020, schemaPath: string): ValidateFunction {
  return ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
}

export function describeAjvErrors(errors: ErrorObject[] | null | undefined, limit = 5): string {
  // ajv reports every failing oneOf branch; the deepest paths say the most.
  const sorted = [...(errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
  const lines = sorted.slice(0, limit).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
  return [...new Set(lines)].join('; ');
}

export function parseDataText(text: string, file: string): unknown {
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    throw new HarnessError('CONFIG', `${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

/** Reads and parses a data file; `flag` names the option that pointed at it, for a usage error. */
export function readDataFile(file: string, flag?: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw flag
      ? new HarnessError('USAGE', `${flag} ${file}: ${(error as Error).message}`)
      : new HarnessError('CONFIG', `${file}: cannot read: ${(error as Error).message}`);
  }
  return parseDataText(text, file);
}

export function readValidatedFile<T>(file: string, validate: ValidateFunction): T {
  const data = readDataFile(file);
  if (!validate(data)) {
    throw new HarnessError('CONFIG', `${file}: invalid: ${describeAjvErrors(validate.errors)}`);
  }
  return data as T;
}
