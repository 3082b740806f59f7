// What can be read off a case without running it: its level, the roles it acts as, the
// endpoints it touches and the aspects it checks. Used by the lint, the test generator
// and the report's endpoint × aspect matrix.
import { ANONYMOUS } from '../http/target-client.js';
import type { Aspect, CaseFacts, Level } from '../core/results.js';
import type { RequirementRegistry } from '../core/requirement-registry.js';
import { caseSourceOf } from '../core/case-source.js';
import type { BytesExpectation, Capability, Case, ParallelStep, RequestSpec, RequestStep, Step, StepsCase } from '../core/suite-format.js';

export const isRequestStep = (step: Step): step is RequestStep => 'request' in step;
export const isParallelStep = (step: Step): step is ParallelStep => 'parallel' in step;

/** The control capability a step needs of the target, if any. */
export function stepCapability(step: Step): Capability | undefined {
  if ('clock' in step) return 'control.clock';
  if ('inject' in step) return 'control.failures';
  return undefined;
}
export const isStepsCase = (c: Case): c is StepsCase => c.kind === undefined || c.kind === 'steps';

const LEVEL_ORDER: Level[] = ['MAY', 'SHOULD', 'MUST'];

/** The request steps of a case, cleanup excluded. */
export function caseSteps(testCase: Case): RequestStep[] {
  if (isStepsCase(testCase)) return testCase.steps.filter(isRequestStep);
  if (testCase.kind === 'limits') return testCase.verify ?? [];
  return [];
}

/** Every requirement a case checks: its own list, its steps' and assertions', and its page-size rules'. */
export function caseRequirements(testCase: Case): string[] {
  const ids = [...testCase.requirements];
  for (const step of [...caseSteps(testCase), ...(testCase.cleanup ?? [])]) {
    if (step.requirement) ids.push(step.requirement);
    for (const assertion of step.expect.assert ?? []) if (assertion.requirement) ids.push(assertion.requirement);
  }
  if (isStepsCase(testCase)) for (const step of testCase.steps) if (isParallelStep(step) && step.requirement) ids.push(step.requirement);
  if (testCase.kind === 'pagination') {
    if (testCase.per_page.default_requirement) ids.push(testCase.per_page.default_requirement);
    if (testCase.per_page.max_requirement) ids.push(testCase.per_page.max_requirement);
  }
  return [...new Set(ids)];
}

/** A case is as strong as the strongest requirement it cites. */
export function caseLevel(testCase: Case, registry: RequirementRegistry): Level {
  return strongestLevel(caseRequirements(testCase), registry);
}

export function strongestLevel(requirementIds: string[], registry: RequirementRegistry): Level {
  const levels = requirementIds.map((id) => registry.get(id)?.level ?? 'MUST');
  return LEVEL_ORDER[Math.max(...levels.map((l) => LEVEL_ORDER.indexOf(l)))];
}

/** The requests a case makes, cleanup excluded. */
function caseRequests(testCase: Case): RequestSpec[] {
  if (isStepsCase(testCase))
    return testCase.steps.flatMap((s) => (isRequestStep(s) ? [s.request] : isParallelStep(s) ? [s.parallel.request] : []));
  if (testCase.kind === 'limits') return [testCase.request, ...(testCase.verify ?? []).map((s) => s.request)];
  return [testCase.request];
}

/** Every role a case acts as, cleanup included. */
export function caseRoles(testCase: Case): string[] {
  const matrixRoles = testCase.kind === 'auth-matrix' ? Object.keys(testCase.expect_by_role) : [];
  return [...new Set([...matrixRoles, ...caseSupportRoles(testCase)])];
}

/**
 * The roles a case cannot do without: those of its steps and its cleanup. An auth matrix's
 * rows are not among them, since a row without a token is left out, but a row's role that
 * also cleans up is: the cleanup could not undo what the other rows did.
 */
export function caseSupportRoles(testCase: Case): string[] {
  const requests = [...(testCase.kind === 'auth-matrix' ? [] : caseRequests(testCase)), ...(testCase.cleanup ?? []).map((s) => s.request)];
  return [...new Set(requests.map((r) => r.as ?? testCase.as ?? ANONYMOUS))];
}

/** "METHOD /template" of each distinct endpoint the case exercises (a request to a `url` is to no endpoint). */
export function caseEndpoints(testCase: Case): string[] {
  return [...new Set(caseRequests(testCase).flatMap((r) => (r.path === undefined ? [] : [`${r.method} ${r.path}`])))];
}

export function caseAspects(testCase: Case): Aspect[] {
  const aspects = new Set<Aspect>();
  if (testCase.kind === 'pagination') aspects.add('pagination');
  else if (testCase.kind === 'auth-matrix') aspects.add('auth');
  else if (testCase.kind === 'limits') aspects.add('limits');
  for (const aspect of testCase.aspects ?? (isStepsCase(testCase) ? ['status'] : [])) aspects.add(aspect);
  if (caseSteps(testCase).some((s) => s.expect.schema)) aspects.add('schema');
  return [...aspects];
}

/** `source`, where the loader noted the case's file and line (a case built in code has none). */
function withSource(testCase: object): Pick<CaseFacts, 'source'> {
  const source = caseSourceOf(testCase);
  return source ? { source } : {};
}

/** The facts of a service case, as results.json records them. */
export function serviceCaseFacts(suite: string, testCase: Case, registry: RequirementRegistry): CaseFacts {
  return {
    id: `${suite}/${testCase.id}`,
    ...withSource(testCase),
    suite,
    title: testCase.title,
    level: caseLevel(testCase, registry),
    requirements: caseRequirements(testCase),
    endpoints: caseEndpoints(testCase),
    aspects: caseAspects(testCase),
    // An auth matrix acts as each of its rows' roles, none of its own.
    role: testCase.kind === 'auth-matrix' ? undefined : (testCase.as ?? ANONYMOUS),
  };
}

/** The facts of a plugin or compiler case: no endpoints, no aspects, no role. */
export function protocolCaseFacts(
  suite: string,
  testCase: { id: string; title: string; requirements: string[] },
  registry: RequirementRegistry,
): CaseFacts {
  return {
    id: `${suite}/${testCase.id}`,
    ...withSource(testCase),
    suite,
    title: testCase.title,
    level: strongestLevel(testCase.requirements, registry),
    requirements: testCase.requirements,
    endpoints: [],
    aspects: [],
  };
}

/** Every text a `bytes.excludes` of the case names. */
export function excludedTexts(testCase: Case): string[] {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        if (key === 'bytes' && child && typeof child === 'object' && Array.isArray((child as BytesExpectation).excludes))
          texts.push(...(child as BytesExpectation).excludes!);
        walk(child);
      }
  };
  walk(testCase);
  return texts;
}
