// Loads suites/service/*.yaml, validates each against suite.schema.json, then lints what
// a schema cannot express: every requirement id is known, schema names exist, roles
// exist in the world, ids and titles are unique, clock steps declare control.clock.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { PAGINATION_REQUIREMENTS } from '../http/pagination-walk.js';
import type { SchemaRegistry } from '../http/schema-registry.js';
import { caseRequirements, caseRoles, caseSteps, isRequestStep, isStepsCase } from './case-facts.js';
import { listYamlFiles, type RequirementRegistry } from './requirement-registry.js';
import type { Case, Expectation, Suite } from '../core/suite-format.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadEndpointAliases, resolveRequests } from './endpoint-aliases.js';

const SCHEMA = fileURLToPath(new URL('./suite.schema.json', import.meta.url));

export interface LintContext {
  registry: RequirementRegistry;
  schemas: SchemaRegistry;
  /** Roles the world defines tokens for (plus anonymous). */
  roles: ReadonlySet<string>;
}

export function loadSuites(dir: string, only: string[] = [], endpointsFile: string = suitePaths.endpoints): Suite[] {
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const aliases = loadEndpointAliases(endpointsFile);
  const files = listYamlFiles(dir);
  const suites = files.map((file) => {
    const { params, ...data } = readValidatedFile<{ description?: string; params?: Record<string, string>; cases: Case[] }>(file, validate);
    resolveRequests(data.cases, aliases, params ?? {}, path.basename(file));
    return { name: path.basename(file, '.yaml'), file, ...data };
  });
  const unknown = only.filter((name) => !suites.some((s) => s.name === name));
  if (unknown.length)
    throw new HarnessError('USAGE', `unknown suite ${unknown.join(', ')}; known: ${suites.map((s) => s.name).join(', ')}`);
  return only.length ? suites.filter((s) => only.includes(s.name)) : suites;
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
    problems.push(
      ...caseIdentityProblems(
        suite.file,
        suite.cases.map((c) => ({ ...c, requirements: caseRequirements(c) })),
        context.registry,
      ),
    );
    for (const testCase of suite.cases) {
      const where = `${path.basename(suite.file)} case ${testCase.id}`;
      const problem = (text: string) => problems.push(`${where}: ${text}`);
      for (const name of usedSchemas(testCase)) if (!context.schemas.has(name)) problem(`unknown schema ${name}`);
      for (const role of caseRoles(testCase)) if (!context.roles.has(role)) problem(`unknown role ${role}`);
      if (isStepsCase(testCase) && testCase.steps.some((s) => !isRequestStep(s)) && !testCase.requires?.includes('control.clock')) {
        problem('moves the clock but does not declare requires: [control.clock]');
      }
      if (testCase.kind === 'limits' && testCase.list.length < testCase.limit + 1)
        problem(`list needs at least ${testCase.limit + 1} values`);
    }
  }
  return problems;
}

/** What every suite format shares: unique ids and titles within a file, and only known requirement ids. */
export function caseIdentityProblems(
  file: string,
  cases: { id: string; title: string; requirements: string[] }[],
  registry: RequirementRegistry,
): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const titles = new Set<string>();
  for (const testCase of cases) {
    const where = `${path.basename(file)} case ${testCase.id}`;
    if (ids.has(testCase.id)) problems.push(`${where}: duplicate id`);
    if (titles.has(testCase.title)) problems.push(`${where}: duplicate title`);
    ids.add(testCase.id);
    titles.add(testCase.title);
    for (const id of testCase.requirements) if (!registry.has(id)) problems.push(`${where}: unknown requirement ${id}`);
  }
  return problems;
}

function usedSchemas(testCase: Case): string[] {
  const expectations: Expectation[] = caseSteps(testCase).map((s) => s.expect);
  if (testCase.kind === 'limits') expectations.push(testCase.expect.below, testCase.expect.at, testCase.expect.above);
  return expectations.flatMap((e) => (e.schema ? [e.schema] : []));
}
