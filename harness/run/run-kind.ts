// What a kind of run (service, plugin, compiler) plugs into the run engine: how one worker gets
// ready and runs a case to its outcome. The engine (engine-test.ts) does the rest for every
// kind alike: one Playwright test per planned case, the worker's setup and teardown, the
// --max-failures budget, the outcome's hand-over to the reporter.
import type { RequirementRegistry } from '../core/requirement-registry.js';
import type { CaseOutcome } from '../core/results.js';
import type { RunConfig } from '../core/run-config.js';
import type { SchemaRegistry } from '../http/schema-registry.js';
import type { PlannedCase } from './run-plan.js';

/** What a worker starts with, each loaded once per worker. */
export interface WorkerSetup {
  config: RunConfig;
  registry: RequirementRegistry;
  /** The compiled schemas of suites/schemas, built at the first call (a service worker's only). */
  schemas(): SchemaRegistry;
  /** Playwright's parallel index of the worker: its lane (service runs: its own target, RunConfig.targetUrls). */
  lane: number;
}

/** One worker's way of running cases; `close` ends what the worker started. */
export interface CaseExecutor<C = unknown> {
  run(planned: PlannedCase<C>): Promise<CaseOutcome>;
  close(): Promise<void> | void;
}

export type StartWorker<C = unknown> = (setup: WorkerSetup) => CaseExecutor<C> | Promise<CaseExecutor<C>>;
