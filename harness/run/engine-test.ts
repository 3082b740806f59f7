// The run engine's Playwright test: worker-scoped fixtures give each worker, once, the
// requirement registry (from the run's plan), the compiled schemas (built at first use) and
// the kind's way of running cases; each test then only runs its case and hands over the
// outcome. Per-case state lives in the test's own call, never in a module global.
// Decision: the engine extends Playwright's root test (`_baseTest`, exported and typed by
// @playwright/test, pinned at an exact version in package.json), not `test`: `test` adds the
// browser fixtures, two of them automatic for every test (trace recording, context options),
// each a step with a captured, source-mapped stack at its setup and its teardown. No case uses
// a browser; they cost a second or two per run.
import { _baseTest as base } from '@playwright/test';
import type { RequirementRegistry } from '../core/requirement-registry.js';
import type { RunConfig } from '../core/run-config.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadSchemaRegistry, type SchemaRegistry } from '../http/schema-registry.js';
import { failureBudget } from './max-failures.js';
import type { CaseExecutor, StartWorker } from './run-kind.js';
import { registryOf, type RunPlan } from './run-plan.js';

/** Each kind's worker, loaded only by the runs of that kind (a service run never loads protobufjs). */
const KINDS: Record<RunConfig['kind'], () => Promise<{ startWorker: StartWorker<never> }>> = {
  service: () => import('./service-kind.js'),
  plugin: () => import('./plugin-kind.js'),
  compiler: () => import('./compiler-kind.js'),
};

export interface EngineWorkerFixtures {
  registry: RequirementRegistry;
  schemas: () => SchemaRegistry;
  executor: CaseExecutor;
}

export function engineTest(config: RunConfig, plan: RunPlan) {
  return base.extend<object, EngineWorkerFixtures>({
    registry: [async ({}, use) => use(registryOf(plan)), { scope: 'worker' }],
    // A function, so that only the kinds that check schemas (the service) build them.
    schemas: [
      async ({}, use) => {
        let built: SchemaRegistry | undefined;
        await use(() => (built ??= loadSchemaRegistry(suitePaths.schemas)));
      },
      { scope: 'worker' },
    ],
    executor: [
      async ({ registry, schemas }, use, workerInfo) => {
        const { startWorker } = await KINDS[config.kind]();
        const executor = await (startWorker as StartWorker)({ config, registry, schemas, lane: workerInfo.parallelIndex });
        const budget = failureBudget(config);
        try {
          await use({
            run: async (planned) => {
              const stopped = budget.spent();
              if (stopped) return stopped;
              const result = await executor.run(planned);
              budget.count(result);
              return result;
            },
            close: () => {},
          });
        } finally {
          await executor.close();
        }
      },
      { scope: 'worker' },
    ],
  });
}
