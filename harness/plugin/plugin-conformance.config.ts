// Playwright configuration of `touchstone plugin`. Cases are independent processes, but
// one worker keeps a slow plugin from being judged under the load of its own copies.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'plugin-conformance.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  reporter: [['../report/conformance-reporter.ts']],
  outputDir: '../../.touchstone-tmp/test-output',
  preserveOutput: 'never',
});
