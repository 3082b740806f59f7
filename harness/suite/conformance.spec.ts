// Turns every case of the selected suites into one Playwright test: tags carry the level
// and area, annotations the requirement ids, endpoints and aspects; each request is a
// test.step with its exchange attached; the outcome travels as an attachment to the
// conformance reporter.
import { test } from '@playwright/test';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { createHttpTransport } from '../http/transport.js';
import { withCassette } from '../proxy/with-cassette.js';
import { serviceCaseFacts } from './case-facts.js';
import { createCaseContext, runCase } from './case-runner.js';
import { loadRequirementRegistry } from './requirement-registry.js';
import { caseTestDetails, handOverOutcome } from './case-test.js';
import { DEFAULT_CASE_TIMEOUT_S, DEFAULT_REQUEST_TIMEOUT_S, readRunConfig } from '../core/run-config.js';
import { loadSuites, selectCases } from './suite-loader.js';
import { suitePaths } from '../core/suite-paths.js';
import { readWorldRoles } from './world-tokens.js';
import { failureBudget } from './max-failures.js';

const config = readRunConfig();
const registry = loadRequirementRegistry(suitePaths.requirements);
const transport = createHttpTransport({
  timeoutMs: config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_S * 1000,
  timeoutOption: '--request-timeout',
});
// Through the record/replay proxy every case has its own cassette, <suite>/<case>.
let currentCase: string | undefined;
const send = config.cassettes ? withCassette(transport.send, () => currentCase) : transport.send;
// Each worker (its parallel index, stable across a restart) judges a target state of its own.
const lane = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const target = {
  url: config.targetUrls?.[lane] ?? config.targetUrl,
  reportedUrl: config.reportedUrls?.[lane] ?? config.reportedUrls?.[0],
  tokens: config.tokens,
  send,
  capabilities: new Set(config.capabilities),
  registry,
  strict: config.strict,
  roles: readWorldRoles(),
  schemas: loadSchemaRegistry(suitePaths.schemas),
  caseTimeoutMs: config.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_S * 1000,
};

const budget = failureBudget(config);

test.afterAll(() => transport.close());

for (const suite of selectCases(loadSuites(suitePaths.service, config.suites), {
  only: config.only ?? [],
  grep: config.grep,
  grepInvert: config.grepInvert,
})) {
  test.describe(suite.name, () => {
    for (const testCase of suite.cases) {
      test(testCase.title, caseTestDetails(serviceCaseFacts(suite.name, testCase, registry)), async ({}, testInfo) => {
        currentCase = `${suite.name}/${testCase.id}`;
        const stopped = budget.spent();
        if (stopped) return handOverOutcome(testInfo, stopped);
        const result = await runCase(
          testCase,
          createCaseContext(target, {
            step: (title, body) => test.step(title, body),
            attach: (name, record) => testInfo.attach(name, { body: JSON.stringify(record, null, 2), contentType: 'application/json' }),
          }),
        );
        budget.count(result);
        await handOverOutcome(testInfo, result);
      });
    }
  });
}
