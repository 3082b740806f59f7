// Every YAML data file under suites/ names, on its first line, the JSON Schema its loader
// validates it with, so editors with a YAML language server check it while it is written.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT, SUITES_DIR, suitePaths } from './suite-paths.js';

/** A folder's YAML files and their schema, or one file's. */
const SCHEMAS: [dirOrFile: string, schema: string][] = [
  [suitePaths.service, 'harness/suite/suite.schema.json'],
  [suitePaths.requirements, 'harness/suite/requirement.schema.json'],
  [suitePaths.faults, 'harness/mutate/fault.schema.json'],
  [suitePaths.variants, 'harness/mutate/variant.schema.json'],
  [suitePaths.plugin, 'harness/plugin/plugin-suite.schema.json'],
  [suitePaths.compiler, 'harness/plugin/compiler-suite.schema.json'],
  [suitePaths.world, 'suites/world.schema.json'],
  [suitePaths.endpoints, 'harness/suite/endpoints.schema.json'],
];

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(path.join(dir, entry.name)) : entry.name.endsWith('.yaml') ? [path.join(dir, entry.name)] : [],
  );
}

test('each YAML file under suites/ starts with a yaml-language-server $schema line pointing at its schema', () => {
  const schemaOf = new Map(SCHEMAS);
  const problems = yamlFiles(SUITES_DIR).flatMap((file) => {
    const dir = path.dirname(file);
    // A folder's schema covers its subfolders (suites/service/<area>/) unless they have their own.
    let owner = file;
    while (!schemaOf.has(owner) && owner !== SUITES_DIR) owner = path.dirname(owner);
    const schema = schemaOf.get(owner);
    if (!schema)
      return [`${path.relative(PROJECT_ROOT, file)}: no loader reads YAML in ${path.relative(PROJECT_ROOT, dir)}/ (add its schema here)`];
    const wanted = `# yaml-language-server: $schema=${path.relative(dir, path.join(PROJECT_ROOT, schema))}`;
    const first = readFileSync(file, 'utf8').split('\n', 1)[0];
    return first === wanted ? [] : [`${path.relative(PROJECT_ROOT, file)}: first line should be "${wanted}", is "${first}"`];
  });
  expect(problems).toEqual([]);
});
