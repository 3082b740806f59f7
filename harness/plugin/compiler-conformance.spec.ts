// Turns every case of the compiler suites into one Playwright test, as
// plugin-conformance.spec.ts does for plugins: tags carry the level and suite,
// annotations the requirement ids, the compiler's run is attached (command line, exit,
// stderr, files left), and the outcome travels to the conformance reporter.
import { test } from '@playwright/test';
import { rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { protocolCaseFacts } from '../suite/case-facts.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import { caseTestDetails, handOverOutcome } from '../suite/case-test.js';
import { readRunConfig } from '../core/run-config.js';
import { suitePaths } from '../core/suite-paths.js';
import { runCompilerCase, type CompilerRunRecord } from './compiler-checks.js';
import { loadCompilerSuites } from './plugin-suite-loader.js';

const config = readRunConfig();
const registry = loadRequirementRegistry(suitePaths.requirements);
const compiler = config.compiler!;

const keptSandboxes = path.join(config.outDir, 'compiler-cases');

for (const suite of loadCompilerSuites(suitePaths.compiler, config.suites)) {
  test.describe(suite.name, () => {
    // Only the sandboxes of cases that did not pass stay: drop the folders left empty.
    test.afterAll(() => {
      for (const dir of [path.join(keptSandboxes, suite.name), keptSandboxes]) {
        try {
          rmdirSync(dir);
        } catch {
          // not empty (a kept sandbox), or already gone
        }
      }
    });
    for (const testCase of suite.cases) {
      test(testCase.title, caseTestDetails(protocolCaseFacts(suite.name, testCase, registry)), async ({}, testInfo) => {
        // Kept when the case does not pass, so the reproduction command can be rerun in it.
        const sandboxRoot = path.join(keptSandboxes, suite.name, testCase.id);
        rmSync(sandboxRoot, { recursive: true, force: true });
        const onRun = async ({ args, result, files }: CompilerRunRecord) => {
          const record = {
            command: [...compiler.command, ...args],
            exit: { code: result.exitCode, signal: result.signal, timedOut: result.timedOut },
            stderr: result.stderr.toString('utf8'),
            stdout: result.stdout.toString('utf8'),
            files,
          };
          await testInfo.attach('compiler run', { body: JSON.stringify(record, null, 2), contentType: 'application/json' });
        };
        const result = await runCompilerCase(testCase, {
          command: compiler.command,
          fixturesDir: suitePaths.pluginFixtures,
          registry,
          strict: config.strict,
          limits: compiler,
          sandboxRoot,
          cwd: compiler.cwd,
          onRun,
        });
        await handOverOutcome(testInfo, result);
      });
    }
  });
}
