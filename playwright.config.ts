import os from 'node:os';
import { defineConfig } from '@playwright/test';

// `npm test`: the project's own tests (co-located *.test.ts), including the self-check
// that runs every suite against the reference. `touchstone run` uses its own config
// (harness/run/conformance.config.ts), not this one.
// The fuzz tests' seed (reference-impl/service/fuzz.test.ts): the date (UTC, YYYYMMDD) unless
// TOUCHSTONE_FUZZ_SEED chooses one. Fixed here, in the runner's process, and inherited by the
// workers, so a run that crosses midnight gives its tests the titles it listed them under.
process.env.TOUCHSTONE_FUZZ_SEED ??= new Date().toISOString().slice(0, 10).replaceAll('-', '');

export default defineConfig({
  testMatch: [
    'bin/**/*.test.ts',
    'lib/**/*.test.ts',
    'harness/**/*.test.ts',
    'reference-impl/**/*.test.ts',
    'bench/**/*.test.ts',
    'test-support/**/*.test.ts',
  ],
  fullyParallel: true,
  // Two workers at least (Playwright's default is half the cores: one on a 2-core machine). Many
  // tests spend their time waiting for a child process (a touchstone run, a proxy, protoc), so a
  // second worker fills the time the first one waits, on a machine of any size.
  workers: Math.max(2, Math.floor(os.availableParallelism() / 2)),
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/results.json' }]] : 'list',
  outputDir: 'test-results/artifacts',
});
