// Turns every case of the selected suites into one Playwright test: tags carry the level
// and area, annotations the requirement ids, endpoints and aspects; each request is a
// test.step with its exchange attached; the outcome travels as an attachment to the
// conformance reporter.
import { test } from '@playwright/test';
import { createRedactor } from '../http/exchange-record.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { createTargetClient } from '../http/target-client.js';
import { createTargetControl } from '../http/target-control.js';
import { createHttpTransport } from '../http/transport.js';
import { withCassette } from '../proxy/with-cassette.js';
import { caseAspects, caseEndpoints, caseLevel, caseRequirements } from './case-facts.js';
import { runCase } from './case-runner.js';
import { loadRequirementRegistry } from './requirement-registry.js';
import { caseTestDetails, handOverOutcome } from './case-test.js';
import { readRunConfig } from './run-config.js';
import { loadSuites } from './suite-loader.js';
import { suitePaths } from './suite-paths.js';

const USER_AGENT = 'touchstone-conformance/0.1';

const config = readRunConfig();
const registry = loadRequirementRegistry(suitePaths.requirements);
const schemas = loadSchemaRegistry(suitePaths.schemas);
const transport = createHttpTransport();
// Through the record/replay proxy every case has its own cassette, <suite>/<case>.
let currentCase: string | undefined;
const send = config.cassettes ? withCassette(transport.send, () => currentCase) : transport.send;
const client = createTargetClient({ baseUrl: config.targetUrl, tokens: config.tokens, transport: send, userAgent: USER_AGENT });
const control = createTargetControl(config.targetUrl, send, USER_AGENT);
const capabilities = new Set(config.capabilities);
const redact = createRedactor(Object.values(config.tokens));

test.afterAll(() => transport.close());

for (const suite of loadSuites(suitePaths.service, config.suites)) {
  test.describe(suite.name, () => {
    for (const testCase of suite.cases) {
      const details = caseTestDetails(suite.name, testCase.id, caseLevel(testCase, registry), caseRequirements(testCase), [
        { type: 'role', description: testCase.as ?? 'anonymous' },
        ...caseEndpoints(testCase).map((e) => ({ type: 'endpoint', description: e })),
        ...caseAspects(testCase).map((a) => ({ type: 'aspect', description: a })),
      ]);
      test(testCase.title, details, async ({}, testInfo) => {
        currentCase = `${suite.name}/${testCase.id}`;
        const result = await runCase(testCase, {
          client, control, capabilities, schemas, registry, redact, strict: config.strict,
          hooks: {
            step: (title, body) => test.step(title, body),
            attach: (name, record) => testInfo.attach(name, { body: JSON.stringify(record, null, 2), contentType: 'application/json' }),
          },
        });
        await handOverOutcome(testInfo, result);
      });
    }
  });
}
