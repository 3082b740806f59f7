// Turns every case of the plugin suites into one Playwright test, as conformance.spec.ts
// does for the service: tags carry the level and suite, annotations the requirement ids,
// each run of the plugin is attached (request and response in readable form, stderr), and
// the outcome travels to the conformance reporter as an attachment. With --record or
// --replay, a recorded session (plugin-session.ts) runs the plugin instead.
import { test } from '@playwright/test';
import { loadFixtureDescriptors } from './fixture-descriptors.js';
import { protocolCaseFacts } from '../suite/case-facts.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import { caseTestDetails, handOverOutcome } from '../suite/case-test.js';
import { readRunConfig } from '../core/run-config.js';
import { suitePaths } from '../core/suite-paths.js';
import { runPluginCase, type PluginRunRecord } from './plugin-checks.js';
import { createSessionRecorder, createSessionReplayer } from './plugin-session.js';
import { loadPluginSuites } from './plugin-suite-loader.js';
import { readableRun } from './readable-run.js';

const config = readRunConfig();
const registry = loadRequirementRegistry(suitePaths.requirements);
const plugin = config.plugin!;
// The CLI has prepared or checked the directory already; opening it here only reads.
const limits = { timeoutMs: plugin.timeoutMs, maxOutputBytes: plugin.maxOutputBytes, cwd: plugin.cwd };
const session = plugin.replay
  ? createSessionReplayer(plugin.replay)
  : plugin.record
    ? createSessionRecorder(plugin.record, plugin.command, limits)
    : undefined;

const fixtures = loadFixtureDescriptors();

for (const suite of loadPluginSuites(suitePaths.plugin, config.suites)) {
  test.describe(suite.name, () => {
    for (const testCase of suite.cases) {
      test(testCase.title, caseTestDetails(protocolCaseFacts(suite.name, testCase, registry)), async ({}, testInfo) => {
        const onRun = async ({ stdin, result }: PluginRunRecord, index: number) => {
          await testInfo.attach(`run ${index + 1}`, {
            body: JSON.stringify(readableRun(stdin, result), null, 2),
            contentType: 'application/json',
          });
        };
        const runPlugin = session?.runnerFor(suite.name, testCase.id);
        const result = await runPluginCase(testCase, {
          command: plugin.command,
          describe: fixtures,
          registry,
          strict: config.strict,
          limits,
          onRun,
          runPlugin,
        });
        await handOverOutcome(testInfo, result);
      });
    }
  });
}
