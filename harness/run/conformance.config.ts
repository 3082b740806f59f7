// Playwright configuration of `touchstone run`, `touchstone plugin` and `touchstone compiler`
// (the project's own tests use the top-level playwright.config.ts). Service cases change their
// target's state, so each worker has a target of its own (RunConfig.targetUrls); a plugin or
// compiler case starts its target on its own (a compiler case in a sandbox folder of its own),
// so their workers share nothing. One worker unless the run asks for more (--workers).
// The same file serves in both its forms: this TypeScript, and its bundle in dist/engine/ (bin/build.ts),
// which conformance-process.ts hands to Playwright while the build is current. Each finds its
// spec and reporter beside itself, in its own form (.ts or .js).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { traceLoad } from '../core/load-trace.js';
import { DEFAULT_CASE_TIMEOUT_S, readRunConfig } from '../core/run-config.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';

const run = readRunConfig();
const extension = path.extname(fileURLToPath(import.meta.url));
traceLoad(extension === '.ts' ? 'engine-sources' : 'engine-built');

export default defineConfig({
  testDir: '.',
  testMatch: `conformance.spec${extension}`,
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
  reporter: [[`./conformance-reporter${extension}`]],
  // Concurrent runs (shards, CI jobs on one machine) once shared one folder and cleared it under each other.
  outputDir: run.playwrightOutput ?? path.join(PROJECT_ROOT, '.touchstone-tmp', 'test-output'),
  preserveOutput: 'never',
  // The compiled form is plain JavaScript already: Playwright loads it as it is, not through its
  // transform (which would hash and look up every bundled file in its cache, on every load).
  // A run also turns Playwright's ESM loader off for it (conformance-process.ts); this holds
  // without that too.
  ...(extension === '.js' && { build: { external: ['dist/engine/**'] } }),
});
