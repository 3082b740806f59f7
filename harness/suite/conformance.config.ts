// Playwright configuration of `touchstone run` (the project's own tests use the top-level
// playwright.config.ts). One worker: cases share one target whose state they change.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'conformance.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  reporter: [['./conformance-reporter.ts']],
  outputDir: '../../.touchstone-tmp/test-output',
  preserveOutput: 'never',
});
