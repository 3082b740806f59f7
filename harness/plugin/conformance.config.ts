// Playwright configuration of `touchstone plugin` and `touchstone compiler`: the run's
// kind picks the spec (plugin-conformance.spec.ts or compiler-conformance.spec.ts). Cases
// are independent processes, but one worker keeps a slow target from being judged under
// the load of its own copies.
import { defineConfig } from '@playwright/test';
import { readRunConfig } from '../core/run-config.js';

const run = readRunConfig();

export default defineConfig({
  testDir: '.',
  testMatch: `${run.kind}-conformance.spec.ts`,
  workers: 1,
  // Shards split the catalogue case by case.
  fullyParallel: true,
  shard: run.shard ?? null,
  retries: 0,
  timeout: 120_000,
  reporter: [['../suite/conformance-reporter.ts']],
  // Concurrent runs (shards, CI jobs on one machine) once shared one folder and cleared it under each other.
  outputDir: run.playwrightOutput ?? '../../.touchstone-tmp/test-output',
  preserveOutput: 'never',
});
