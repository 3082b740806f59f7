// Loads suites/plugin/*.yaml, validates each against plugin-suite.schema.json, then lints
// what a schema cannot express: ids and titles unique, requirement ids known, and every
// fixture a request names exists.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.js';
import { listYamlFiles, type RequirementRegistry } from '../suite/requirement-registry.js';
import { caseIdentityProblems } from '../suite/suite-loader.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../suite/validated-file.js';
import type { PluginCase, PluginSuite } from './plugin-suite-format.js';

const SCHEMA = fileURLToPath(new URL('./plugin-suite.schema.json', import.meta.url));

export function loadPluginSuites(dir: string, only: string[] = []): PluginSuite[] {
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const suites = listYamlFiles(dir).map((file) => ({ name: path.basename(file, '.yaml'), file, ...readValidatedFile<{ description?: string; cases: PluginCase[] }>(file, validate) }));
  const unknown = only.filter((name) => !suites.some((s) => s.name === name));
  if (unknown.length) throw new HarnessError('USAGE', `unknown suite ${unknown.join(', ')}; known: ${suites.map((s) => s.name).join(', ')}`);
  return only.length ? suites.filter((s) => only.includes(s.name)) : suites;
}

/** Every problem found, one line each; empty when the suites are sound. */
export function lintPluginSuites(suites: PluginSuite[], registry: RequirementRegistry, fixturesDir: string): string[] {
  const problems: string[] = [];
  for (const suite of suites) {
    problems.push(...caseIdentityProblems(suite.file, suite.cases, registry));
    for (const testCase of suite.cases) {
      if (!('request' in testCase.input)) continue;
      for (const file of testCase.input.request.files) {
        if (!existsSync(path.join(fixturesDir, file))) problems.push(`${path.basename(suite.file)} case ${testCase.id}: no fixture ${file} in ${fixturesDir}`);
      }
    }
  }
  return problems;
}
