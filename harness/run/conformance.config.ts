// Playwright configuration of `touchstone run`, `touchstone plugin` and `touchstone compiler`
// (the project's own tests use the top-level playwright.config.ts). Service cases change their
// target's state, so each worker has a target of its own (RunConfig.targetUrls); plugin and
// compiler runs keep one worker, so that a slow target is not judged under the load of its own
// copies. One worker unless the run asks for more.
import { defineConfig } from '@playwright/test';
import { DEFAULT_CASE_TIMEOUT_S, readRunConfig } from '../core/run-config.js';

const run = readRunConfig();

export default defineConfig({
  testDir: '.',
  testMatch: 'conformance.spec.ts',
  workers: run.workers ?? 1,
  // Every case its own unit of scheduling: workers and shards split the catalogue case by case.
  // One worker and no shard runs the cases in order as one group: Playwright binds a group to
  // its file by hashing the id of every test in the file, so case-by-case groups cost
  // cases × cases hashes (0.4 s of the worker's CPU in a whole run).
  fullyParallel: (run.workers ?? 1) > 1 || run.shard !== undefined,
  shard: run.shard ?? null,
  retries: 0,
  // A backstop only. A service case ends itself at its bound (--case-timeout, case-bounds.ts); the
  // margin covers what comes after the bound (the outcome's attachment, a cleanup refused at
  // once). A plugin or compiler case is bounded by each start of its target (--timeout).
  timeout: run.kind === 'service' ? (run.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_S * 1000) + 30_000 : 120_000,
  reporter: [['./conformance-reporter.ts']],
  // Concurrent runs (shards, CI jobs on one machine) once shared one folder and cleared it under each other.
  outputDir: run.playwrightOutput ?? '../../.touchstone-tmp/test-output',
  preserveOutput: 'never',
});
