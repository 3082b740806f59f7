// Loads the plugin suites (suites/plugin/*.yaml) and the compiler suites
// (suites/plugin/compiler/*.yaml), validates each file against its schema, then lints what
// a schema cannot express: ids and titles unique, requirement ids known, every fixture a
// case names exists, and (compiler cases) the ids of the checks a case asks for are cited.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { listYamlFiles, type RequirementRegistry } from '../core/requirement-registry.js';
import { caseIdentityProblems } from '../core/case-identity.js';
import { compileSchemaFile, createAjv, readLocatedFile } from '../core/validated-file.js';
import { noteCaseSources } from '../core/case-source.js';
import { checkRequirementsOf, compilerSuiteSchemaFile, type CompilerCase, type CompilerSuite } from './compiler-suite-format.js';
import { pluginSuiteSchemaFile, type PluginCase, type PluginSuite } from './plugin-suite-format.js';
import { projectPath } from '../../lib/project-files.js';
import { namedSuites } from '../core/select-cases.js';

const PLUGIN_SCHEMA = projectPath(pluginSuiteSchemaFile.path);
const COMPILER_SCHEMA = projectPath(compilerSuiteSchemaFile.path);

interface Suite<C> {
  name: string;
  file: string;
  description?: string;
  cases: C[];
}

function loadSuites<C extends object>(dir: string, schema: string, only: string[]): Suite<C>[] {
  const validate = compileSchemaFile(createAjv(), schema);
  const suites = listYamlFiles(dir).map((file) => {
    const { data, lineOf } = readLocatedFile<{ description?: string; cases: C[] }>(file, validate);
    noteCaseSources(file, data.cases, lineOf);
    return { name: path.basename(file, '.yaml'), file, ...data };
  });
  return namedSuites(suites, only);
}

export function loadPluginSuites(dir: string, only: string[] = []): PluginSuite[] {
  return loadSuites<PluginCase>(dir, PLUGIN_SCHEMA, only);
}

export function loadCompilerSuites(dir: string, only: string[] = []): CompilerSuite[] {
  return loadSuites<CompilerCase>(dir, COMPILER_SCHEMA, only);
}

/** Problems common to both kinds, plus what `caseProblems` finds in each case. */
function lintSuites<C extends { id: string; title: string; requirements: string[] }>(
  suites: Suite<C>[],
  registry: RequirementRegistry,
  fixturesDir: string,
  caseFacts: (testCase: C) => { fixtures: string[]; problems: string[] },
): string[] {
  const problems: string[] = [];
  for (const suite of suites) {
    problems.push(...caseIdentityProblems(suite.cases, registry, (id) => `${path.basename(suite.file)} case ${id}`));
    for (const testCase of suite.cases) {
      const where = `${path.basename(suite.file)} case ${testCase.id}`;
      const facts = caseFacts(testCase);
      for (const file of facts.fixtures)
        if (!existsSync(path.join(fixturesDir, file))) problems.push(`${where}: no fixture ${file} in ${fixturesDir}`);
      problems.push(...facts.problems.map((text) => `${where}: ${text}`));
    }
  }
  return problems;
}

/** Every problem found, one line each; empty when the suites are sound. */
export function lintPluginSuites(suites: PluginSuite[], registry: RequirementRegistry, fixturesDir: string): string[] {
  return lintSuites(suites, registry, fixturesDir, (testCase) => ({
    fixtures: 'request' in testCase.input ? testCase.input.request.files : [],
    problems: [],
  }));
}

export function lintCompilerSuites(suites: CompilerSuite[], registry: RequirementRegistry, fixturesDir: string): string[] {
  return lintSuites(suites, registry, fixturesDir, (testCase) => {
    const problems: string[] = [];
    for (const id of checkRequirementsOf(testCase))
      if (!testCase.requirements.includes(id)) problems.push(`checks ${id} but does not cite it`);
    const names = testCase.generators.map((g) => g.name);
    if (new Set(names).size !== names.length) problems.push('two generators share a name');
    const asked = testCase.expect.request?.generator;
    if (asked && !names.includes(asked)) problems.push(`expect.request.generator ${asked} is not one of its generators`);
    const outs = new Set(testCase.generators.map((g) => g.out ?? 'out'));
    for (const key of Object.keys(testCase.expect.output ?? {}))
      if (!outs.has(key.split('/')[0])) problems.push(`expected output ${key} is not in an output directory of the case`);
    return { fixtures: testCase.files, problems };
  });
}
