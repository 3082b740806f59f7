// Playwright configuration of `touchstone run` (the project's own tests use the top-level
// playwright.config.ts). Cases change their target's state, so each worker has a target
// of its own (RunConfig.targetUrls); one worker unless the run asks for more.
import { defineConfig } from '@playwright/test';
import { DEFAULT_CASE_TIMEOUT_S, readRunConfig } from '../core/run-config.js';

const run = readRunConfig();

export default defineConfig({
  testDir: '.',
  testMatch: 'conformance.spec.ts',
  workers: run.workers ?? 1,
  // Every case its own unit of scheduling: workers and shards split the catalogue case by case.
  fullyParallel: true,
  shard: run.shard ?? null,
  retries: 0,
  // A backstop only: each case ends itself at its bound (--case-timeout, case-bounds.ts). The
  // margin covers what comes after the bound (the outcome's attachments, a cleanup refused at once).
  timeout: (run.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_S * 1000) + 30_000,
  reporter: [['./conformance-reporter.ts']],
  // Concurrent runs (shards, CI jobs on one machine) once shared one folder and cleared it under each other.
  outputDir: run.playwrightOutput ?? '../../.touchstone-tmp/test-output',
  preserveOutput: 'never',
});
