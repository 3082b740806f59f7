// The plan of a run: every case it will run, with its facts, and the requirement registry that
// grades them. The CLI makes it once (it has loaded and linted the suites and the registry
// already) and hands it to the Playwright process in a file beside the run configuration: the
// spec declares its tests from it, each worker grades with its registry, and the reporter reads
// each case's facts and the requirements in scope from it. Nothing downstream reads the suites'
// or the requirements' YAML again, nor decodes facts back from Playwright annotations.
import { readFileSync, writeFileSync } from 'node:fs';
import type { RequirementRegistry } from '../core/requirement-registry.js';
import type { CaseFacts } from '../core/results.js';
import type { RunConfig } from '../core/run-config.js';
import type { Requirement } from '../core/suite-format.js';
import { HarnessError } from '../core/errors.js';

export interface PlannedCase<C = unknown> {
  facts: CaseFacts;
  /** The case as its suite states it (a service, plugin or compiler case). */
  testCase: C;
}

export interface RunPlan<C = unknown> {
  /** The whole registry: workers grade by the levels of what cases cite; the reporter scopes the verdict. */
  requirements: Requirement[];
  /** In catalogue order, which the reports keep. */
  cases: PlannedCase<C>[];
}

/** The selected suites' cases, in order, each with its facts. */
export function planRun<C>(
  suites: readonly { name: string; cases: readonly C[] }[],
  registry: RequirementRegistry,
  facts: (suite: string, testCase: C, registry: RequirementRegistry) => CaseFacts,
): RunPlan<C> {
  return {
    requirements: [...registry.values()],
    cases: suites.flatMap((suite) => suite.cases.map((testCase) => ({ facts: facts(suite.name, testCase, registry), testCase }))),
  };
}

export function writeRunPlan(file: string, plan: RunPlan): void {
  writeFileSync(file, JSON.stringify(plan), { mode: 0o600 });
}

/** The plan of the run `config` describes (RunConfig.plan, written by runConformance). */
export function readRunPlan<C = unknown>(config: Pick<RunConfig, 'plan'>): RunPlan<C> {
  if (!config.plan) throw new HarnessError('USAGE', 'the run configuration names no plan: start conformance runs with `touchstone run`');
  return JSON.parse(readFileSync(config.plan, 'utf8')) as RunPlan<C>;
}

export function registryOf(plan: Pick<RunPlan, 'requirements'>): RequirementRegistry {
  return new Map(plan.requirements.map((r) => [r.id, r]));
}
