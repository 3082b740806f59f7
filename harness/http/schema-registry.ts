// Resource schemas from suites/schemas/*.json, compiled once per process that checks them (a
// build takes ~125 ms: callers build one and keep it; the run engine does so per worker). A name refers to
// NAME.json; NAME[] to an array of them. Files reference each other with "$ref": "x.json".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { HarnessError } from '../core/errors.js';
import { createAjv } from '../core/validated-file.js';
import { traceLoad } from '../core/load-trace.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';

export const SCHEMA_BASE_URI = 'https://touchstone.dev/schemas/';

export interface SchemaRegistry {
  has(name: string): boolean;
  /** Undefined when valid, else a readable list of problems. */
  check(name: string, value: unknown): string | undefined;
}

export function loadSchemaRegistry(dir: string): SchemaRegistry {
  traceLoad('schemas');
  const ajv = createAjv();
  const names = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const schema = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    const name = file.slice(0, -'.json'.length);
    if (schema.$id !== SCHEMA_BASE_URI + file) throw new HarnessError('CONFIG', `${file}: $id must be ${SCHEMA_BASE_URI + file}`);
    ajv.addSchema(schema);
    names.add(name);
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (name: string) => {
    let fn = compiled.get(name);
    if (!fn) {
      const base = name.replace(/\[\]$/, '');
      const ref = { $ref: `${SCHEMA_BASE_URI + base}.json` };
      fn = ajv.compile(name.endsWith('[]') ? { type: 'array', items: ref } : ref);
      compiled.set(name, fn);
    }
    return fn;
  };
  return {
    has: (name) => names.has(name.replace(/\[\]$/, '')),
    check(name, value) {
      const validate = validator(name);
      return validate(value) ? undefined : describeSchemaErrors(validate.errors);
    },
  };
}
