// The JSON Schema files of touchstone's formats are generated, never written by hand: each is
// what its TypeBox source generates today (`npm run schemas`), so a format's schema and its
// TypeScript type cannot drift apart.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createAjv } from '../core/validated-file.js';
import { WORLD_SCHEMA_PATH } from '../../reference-impl/service/generated-files.js';
import { PROJECT_ROOT, projectPath } from '../../lib/project-files.js';
import { SCHEMA_FILES, SCHEMAS_COMMAND, schemaFileText } from './schema-files.js';

/** Every *.schema.json of the project that git knows or would add (tracked, or untracked and not ignored). */
function projectSchemaFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.schema.json'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\n').filter(Boolean))].sort();
}

/** The world's schema is generated too, from the reference's world-schema.ts (`npm run docs:service`). */
const GENERATED = new Set([...SCHEMA_FILES.map((file) => file.path), WORLD_SCHEMA_PATH.slice(PROJECT_ROOT.length + 1)]);

/** The schema files no generator writes. */
function handWritten(paths: readonly string[]): string[] {
  return paths.filter((file) => !GENERATED.has(file));
}

for (const file of SCHEMA_FILES) {
  test(`${file.path} is what its TypeBox source generates (${SCHEMAS_COMMAND} rewrites it)`, () => {
    expect(readFileSync(projectPath(file.path), 'utf8'), `${file.path} is stale: run \`${SCHEMAS_COMMAND}\` and commit the result`).toBe(
      schemaFileText(file),
    );
  });
}

test('no *.schema.json is written by hand: every one comes from a generator whose output a test compares', () => {
  const files = projectSchemaFiles();
  expect(files.length).toBeGreaterThan(0);
  expect(handWritten(files), `write these in TypeBox beside their type and add them to SCHEMA_FILES (harness/cli/schema-files.ts)`).toEqual(
    [],
  );
  // Negative control: a schema file no generator writes is reported.
  expect(handWritten([...files, 'harness/suite/new-format.schema.json'])).toEqual(['harness/suite/new-format.schema.json']);
});

test('each generated schema compiles under the strict Ajv the loaders use, with a distinct $id', () => {
  const ids = SCHEMA_FILES.map((file) => {
    createAjv().compile(file.document);
    return (file.document as { $id: string }).$id;
  });
  expect(new Set(ids).size).toBe(ids.length);
});
