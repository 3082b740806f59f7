// Loads suites/service/<area>/*.yaml (one folder per area, one suite per folder),
// validates each file against suite.schema.json, then lints what a schema cannot
// express: every requirement id is known, schema names exist, roles exist in the world,
// ids and titles are unique within the area, clock steps declare control.clock.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { namedSuites } from '../core/select-cases.js';
import { PAGINATION_REQUIREMENTS } from '../http/pagination-walk.js';
import type { SchemaRegistry } from '../http/schema-registry.js';
import { caseRequirements, caseRoles, caseSteps, isParallelStep, isRequestStep, isStepsCase, stepCapability } from './case-facts.js';
import { listYamlFiles, type RequirementRegistry } from '../core/requirement-registry.js';
import { caseIdentityProblems } from '../core/case-identity.js';
import { suiteSchemaFile, type Case, type Expectation, type RequestStep, type Suite, type SuiteFile } from '../core/suite-format.js';
import { templateProblems } from './interpolate.js';
import { compileSchemaFile, createAjv, readLocatedFile } from '../core/validated-file.js';
import { noteCaseSources, noteGeneratedSource } from '../core/case-source.js';
import { crossCuttingCases } from './cross-cutting-cases.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadEndpointAliases, resolveRequests } from './endpoint-aliases.js';
import { projectPath } from '../../lib/project-files.js';
import { traceLoad } from '../core/load-trace.js';

const SCHEMA = projectPath(suiteSchemaFile.path);

export interface LintContext {
  registry: RequirementRegistry;
  schemas: SchemaRegistry;
  /** Roles the world defines tokens for (plus anonymous). */
  roles: ReadonlySet<string>;
}

export function loadSuites(dir: string, only: string[] = [], endpointsDir: string = suitePaths.endpoints): Suite[] {
  traceLoad('suites');
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const aliases = loadEndpointAliases(endpointsDir);
  const entries = readdirSync(dir, { withFileTypes: true });
  const strays = entries.filter((e) => e.isFile() && e.name.endsWith('.yaml')).map((e) => e.name);
  if (strays.length) throw new HarnessError('CONFIG', `${dir}: ${strays.join(', ')} must be in an area folder (${dir}/<area>/<file>.yaml)`);
  const suites = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name): Suite => {
      const areaDir = path.join(dir, name);
      const fileOf = new Map<string, string>();
      const cases = listYamlFiles(areaDir).flatMap((file) => {
        const { data, lineOf } = readLocatedFile<SuiteFile>(file, validate);
        const { params, cases } = data;
        noteCaseSources(file, cases, lineOf);
        resolveRequests(cases, aliases, params ?? {}, path.basename(file));
        // A duplicate id keeps its first file here; lintSuites reports it.
        for (const c of cases) if (!fileOf.has(c.id)) fileOf.set(c.id, file);
        return cases;
      });
      if (cases.length === 0) throw new HarnessError('CONFIG', `${areaDir}: an area folder with no cases (no .yaml file)`);
      for (const endpoint of [...aliases.values()].filter((e) => e.area === name))
        for (const generated of crossCuttingCases([endpoint])) {
          noteGeneratedSource(generated, endpoint.source);
          if (!fileOf.has(generated.id)) fileOf.set(generated.id, endpoint.file);
          cases.push(generated);
        }
      return { name, dir: areaDir, cases, fileOf };
    });
  return namedSuites(suites, only);
}

/** Every problem found, one line each; empty when the suites are sound. */
export function lintSuites(suites: Suite[], context: LintContext): string[] {
  const problems: string[] = [];
  const usesPagination = suites.some((s) => s.cases.some((c) => c.kind === 'pagination'));
  if (usesPagination) {
    for (const id of Object.values(PAGINATION_REQUIREMENTS)) {
      if (!context.registry.has(id)) problems.push(`registry: the pagination check cites ${id}, which is not in suites/requirements`);
    }
  }
  for (const suite of suites) {
    const where = (id: string) => `${path.relative(path.dirname(suite.dir), suite.fileOf.get(id) ?? suite.dir)} case ${id}`;
    problems.push(
      ...caseIdentityProblems(
        suite.cases.map((c) => ({ ...c, requirements: caseRequirements(c) })),
        context.registry,
        where,
      ),
    );
    for (const testCase of suite.cases) {
      const problem = (text: string) => problems.push(`${where(testCase.id)}: ${text}`);
      for (const name of usedSchemas(testCase)) if (!context.schemas.has(name)) problem(`unknown schema ${name}`);
      for (const role of caseRoles(testCase)) if (!context.roles.has(role)) problem(`unknown role ${role}`);
      for (const capability of new Set(isStepsCase(testCase) ? testCase.steps.map(stepCapability) : []))
        if (capability && !testCase.requires?.includes(capability))
          problem(`has a step that needs ${capability} but does not declare requires: [${capability}]`);
      if (testCase.kind === 'limits' && testCase.list.length < testCase.limit + 1)
        problem(`list needs at least ${testCase.limit + 1} values`);
      for (const text of bindingProblems(testCase)) problem(text);
    }
  }
  return problems;
}

/**
 * Templates checked in the order they run, each against the names bound by then: a step
 * sees what earlier steps captured; a limits case's request and expectations see ${n} and
 * $list, its verify steps also what the limited request captured; cleanup sees every capture.
 */
function bindingProblems(testCase: Case): string[] {
  const names = new Set<string>();
  const bound = { names, list: testCase.kind === 'limits' };
  const problems: string[] = [];
  const check = (label: string, ...templates: unknown[]) =>
    problems.push(...templates.flatMap((t) => templateProblems(t, bound)).map((p) => `${label}: ${p}`));
  const run = (label: string, step: RequestStep) => {
    check(label, step.request, step.expect);
    for (const name of Object.keys(step.expect.capture ?? {})) names.add(name);
  };
  if (isStepsCase(testCase))
    testCase.steps.forEach((step, i) => {
      if (isRequestStep(step)) run(`step ${i + 1}`, step);
      else if (isParallelStep(step)) {
        // `${i}` is bound in the copies of a parallel request only.
        const copies = { names: new Set([...names, 'i']), list: bound.list };
        problems.push(...templateProblems(step.parallel.request, copies).map((p) => `step ${i + 1}: ${p}`));
        if (step.parallel.capture) names.add(step.parallel.capture);
      } else if ('clock' in step) check(`step ${i + 1}`, step.clock);
    });
  else if (testCase.kind === 'limits') {
    names.add('n');
    const variants = Object.values(testCase.expect);
    check('request', testCase.request, ...variants);
    for (const expect of variants) for (const name of Object.keys(expect.capture ?? {})) names.add(name);
    (testCase.verify ?? []).forEach((step, i) => run(`verify step ${i + 1}`, step));
  } else if (testCase.kind === 'auth-matrix') {
    names.add('role');
    check('request', testCase.request);
  } else check('request', testCase.request);
  (testCase.cleanup ?? []).forEach((step, i) => check(`cleanup step ${i + 1}`, step));
  return [...new Set(problems)];
}

function usedSchemas(testCase: Case): string[] {
  const expectations: Expectation[] = caseSteps(testCase).map((s) => s.expect);
  if (testCase.kind === 'limits') expectations.push(testCase.expect.below, testCase.expect.at, testCase.expect.above);
  return expectations.flatMap((e) => (e.schema ? [e.schema] : []));
}
