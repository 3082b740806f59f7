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
import { OWN_FILES, pluginSuiteSchemaFile, type PluginCase, type PluginSuite } from './plugin-suite-format.js';
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

function loadSuites<C extends object>(dir: string, schema: string): Suite<C>[] {
  const validate = compileSchemaFile(createAjv(), schema);
  return listYamlFiles(dir).map((file) => {
    const { data, lineOf } = readLocatedFile<{ description?: string; cases: C[] }>(file, validate);
    noteCaseSources(file, data.cases, lineOf);
    return { name: path.basename(file, '.yaml'), file, ...data };
  });
}

/**
 * The plugin suites `only` names (all when empty), resolved against `ownFiles` (--proto) and
 * the judges of every suite, so a case of one suite names its judge in another.
 */
export function loadPluginSuites(dir: string, only: string[] = [], ownFiles: readonly string[] = []): PluginSuite[] {
  const suites = loadSuites<PluginCase>(dir, PLUGIN_SCHEMA)
    .map((suite) => ({ ...suite, cases: suite.cases.flatMap((testCase) => withOwnFiles(testCase, ownFiles)) }))
    .filter((suite) => suite.cases.length > 0);
  const judges = new Map<string, string>();
  for (const suite of suites)
    for (const testCase of suite.cases)
      if ('sound_requests' in testCase.input)
        for (const request of testCase.input.sound_requests) judges.set(requestKey(request.files), `${suite.name}/${testCase.id}`);
  for (const testCase of suites.flatMap((suite) => suite.cases)) {
    const files = preconditionFiles(testCase);
    const judge = files && judges.get(requestKey(files));
    if (judge) testCase.judgedBy = judge;
  }
  return namedSuites(suites, only);
}

/** The compiler suites `only` names (all when empty); a case that needs its plugins started names the case that judges that. */
export function loadCompilerSuites(dir: string, only: string[] = []): CompilerSuite[] {
  const suites = loadSuites<CompilerCase>(dir, COMPILER_SCHEMA);
  const judge = suites.flatMap((suite) => suite.cases.filter((c) => c.expect.plugins_started).map((c) => `${suite.name}/${c.id}`))[0];
  for (const testCase of suites.flatMap((suite) => suite.cases)) if (testCase.precondition !== 'none' && judge) testCase.judgedBy = judge;
  return namedSuites(suites, only);
}

const requestKey = (files: readonly string[]) => files.join('\n');

/** The sound request a case's precondition is about, or undefined when it has none. */
export function preconditionFiles(testCase: PluginCase): string[] | undefined {
  const { precondition, input } = testCase;
  if (precondition === 'none') return undefined;
  if (typeof precondition === 'object') return precondition.answers;
  return 'request' in input ? input.request.files : undefined;
}

/**
 * The case with {proto} replaced by `ownFiles`; without them, no case (when its request or
 * precondition names them) or the case without the sound requests that do.
 */
function withOwnFiles(testCase: PluginCase, ownFiles: readonly string[]): PluginCase[] {
  const resolve = (files: string[]): string[] | undefined =>
    files.includes(OWN_FILES) ? (ownFiles.length ? files.flatMap((f) => (f === OWN_FILES ? ownFiles : [f])) : undefined) : files;
  const { input, precondition } = testCase;
  if ('sound_requests' in input) {
    const sound_requests = input.sound_requests.flatMap((request) => {
      const files = resolve(request.files);
      return files ? [{ files }] : [];
    });
    return [{ ...testCase, input: { sound_requests } }];
  }
  const resolved: PluginCase = { ...testCase };
  if ('request' in input) {
    const files = resolve(input.request.files);
    if (!files) return [];
    resolved.input = { request: { ...input.request, files } };
  }
  if (typeof precondition === 'object') {
    const files = resolve(precondition.answers);
    if (!files) return [];
    resolved.precondition = { answers: files };
  }
  return [resolved];
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
/** `ownFiles`: the files of --proto, which are not under the fixtures folder. */
export function lintPluginSuites(
  suites: PluginSuite[],
  registry: RequirementRegistry,
  fixturesDir: string,
  ownFiles: readonly string[] = [],
): string[] {
  return lintSuites(suites, registry, fixturesDir, (testCase) => {
    const { input, precondition } = testCase;
    const problems: string[] = [];
    const files = preconditionFiles(testCase);
    if (precondition !== 'none' && !files) problems.push(`precondition ${precondition} needs a request built from fixtures`);
    if (files && !testCase.judgedBy)
      problems.push(`no case's sound_requests hold its precondition's request (${files.join(', ')}): who would judge its refusal?`);
    if ('sound_requests' in input && precondition !== 'none') problems.push('judges sound requests, so it has no precondition (none)');
    const fixtures = [
      ...('request' in input ? input.request.files : []),
      ...('sound_requests' in input ? input.sound_requests.flatMap((r) => r.files) : []),
      ...(typeof precondition === 'object' ? precondition.answers : []),
    ];
    return { fixtures: fixtures.filter((file) => !ownFiles.includes(file)), problems };
  });
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
    if (testCase.precondition !== 'none' && !testCase.judgedBy)
      problems.push('no case judges whether the compiler starts its plugins (expect.plugins_started)');
    if (testCase.expect.plugins_started && testCase.precondition !== 'none')
      problems.push('judges whether plugins start, so it has no precondition (none)');
    const outs = new Set(testCase.generators.map((g) => g.out ?? 'out'));
    for (const key of Object.keys(testCase.expect.output ?? {}))
      if (!outs.has(key.split('/')[0])) problems.push(`expected output ${key} is not in an output directory of the case`);
    return { fixtures: testCase.files, problems };
  });
}
