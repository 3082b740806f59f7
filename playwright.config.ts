import { defineConfig } from '@playwright/test';

// `npm test`: the project's own tests (co-located *.test.ts), including the self-check
// that runs every suite against the reference. `touchstone run` uses its own config
// (harness/suite/conformance.config.ts), not this one.
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
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/results.json' }]] : 'list',
  outputDir: 'test-results/artifacts',
});
