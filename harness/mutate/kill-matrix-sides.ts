// How each side of the reference is run by the kill matrix, with one fault or one variation
// on, or neither:
// - the service: one reference process; each case resets it (the control API) and the
//   switches are set again right after, since a reset switches runtime ones off;
// - the plugin and the compiler: their command with `--fault=ID` or `--variant=ID`
//   appended, a process per run, so several runs can go at once.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompilerSuite } from '../plugin/compiler-suite-format.js';
import { runCompilerCase } from '../plugin/compiler-checks.js';
import { runPluginCase } from '../plugin/plugin-checks.js';
import type { DescribeFiles } from '../plugin/plugin-input.js';
import type { PluginProcessOptions } from '../plugin/plugin-process.js';
import type { PluginSuite } from '../plugin/plugin-suite-format.js';
import type { CaseFacts, CaseOutcome } from '../core/results.js';
import { protocolCaseFacts, serviceCaseFacts } from '../suite/case-facts.js';
import { createCaseContext, runCase, SILENT_HOOKS, type ServiceTarget } from '../suite/case-runner.js';
import type { RequirementRegistry } from '../core/requirement-registry.js';
import type { Case, Suite } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import type { SideRunner, Switched } from './kill-matrix.js';

/** Two runs at once: one per core of the machines this is measured on. */
const PROCESS_CONCURRENCY = 2;

interface Indexed<C> {
  facts: CaseFacts;
  testCase: C;
}

function indexCases<C>(suites: { name: string; cases: C[] }[], facts: (suite: string, testCase: C) => CaseFacts): Map<string, Indexed<C>> {
  const index = new Map<string, Indexed<C>>();
  for (const suite of suites) {
    for (const testCase of suite.cases) {
      const f = facts(suite.name, testCase);
      index.set(f.id, { facts: f, testCase });
    }
  }
  return index;
}

/** Times one run and finds its case. */
function sideRunner<C>(
  side: SideRunner['side'],
  index: Map<string, Indexed<C>>,
  concurrency: number,
  run: (testCase: C, switched: Switched) => Promise<CaseOutcome>,
): SideRunner {
  return {
    side,
    cases: [...index.values()].map((entry) => entry.facts),
    concurrency,
    async run(caseId, switched) {
      const started = new Date();
      const found = await run(index.get(caseId)!.testCase, switched);
      return { ...found, started_at: started.toISOString(), duration_ms: Date.now() - started.getTime() };
    },
  };
}

export function serviceSide(suites: Suite[], target: ServiceTarget): SideRunner {
  const index = indexCases<Case>(suites, (suite, testCase) => serviceCaseFacts(suite, testCase, target.registry));
  return sideRunner('service', index, 1, async (testCase, switched) => {
    const context = createCaseContext(target, SILENT_HOOKS);
    const faults = switched && 'fault' in switched ? [switched.fault] : [];
    const variants = switched && 'variant' in switched ? [switched.variant] : [];
    const { reset } = context.control;
    const switchOn = async () => {
      await context.control.faults(faults);
      await context.control.variants(variants);
    };
    context.control.reset = async () => {
      await reset();
      if (switched) await switchOn();
    };
    // Cases reset before they start; this one also clears what the last case left on.
    await switchOn();
    return runCase(testCase, context);
  });
}

const withSwitch = (command: string[], switched: Switched) =>
  switched === undefined ? command : [...command, 'fault' in switched ? `--fault=${switched.fault}` : `--variant=${switched.variant}`];

export function pluginSide(
  suites: PluginSuite[],
  options: { command: string[]; describe: DescribeFiles; registry: RequirementRegistry; limits: PluginProcessOptions },
): SideRunner {
  const index = indexCases(suites, (suite, testCase) => protocolCaseFacts(suite, testCase, options.registry));
  return sideRunner('plugin', index, PROCESS_CONCURRENCY, (testCase, switched) =>
    runPluginCase(testCase, {
      command: withSwitch(options.command, switched),
      describe: options.describe,
      registry: options.registry,
      strict: false,
      limits: options.limits,
    }),
  );
}

export function compilerSide(
  suites: CompilerSuite[],
  options: { command: string[]; registry: RequirementRegistry; limits: PluginProcessOptions },
): SideRunner {
  const index = indexCases(suites, (suite, testCase) => protocolCaseFacts(suite, testCase, options.registry));
  return sideRunner('compiler', index, PROCESS_CONCURRENCY, async (testCase, switched) => {
    // A sandbox of its own per run; a case that does not pass leaves it, so remove it here.
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-mutate-'));
    try {
      return await runCompilerCase(testCase, {
        command: withSwitch(options.command, switched),
        fixturesDir: suitePaths.pluginFixtures,
        registry: options.registry,
        strict: false,
        limits: options.limits,
        sandboxRoot: path.join(scratch, 'case'),
        cwd: options.limits.cwd ?? process.cwd(),
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}
