// Turns every case of the plugin suites into one Playwright test, as conformance.spec.ts
// does for the service: tags carry the level and suite, annotations the requirement ids,
// each run of the plugin is attached (request and response in readable form, stderr), and
// the outcome travels to the conformance reporter as an attachment.
import { test } from '@playwright/test';
import { describeFixtures, PLUGIN_SUITES_DIR } from '../cli/plugin-fixtures.js';
import { decodeRequest, decodeResponse } from '../protocol/plugin-codec.js';
import { readableRequest, readableResponse } from '../protocol/readable-form.js';
import { strongestLevel } from '../suite/case-facts.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import { OUTCOME_ATTACHMENT, readRunConfig } from '../suite/run-config.js';
import { suitePaths } from '../suite/suite-paths.js';
import { runPluginCase, type PluginRunRecord } from './plugin-checks.js';
import { loadPluginSuites } from './plugin-suite-loader.js';

const config = readRunConfig();
const registry = loadRequirementRegistry(suitePaths.requirements);
const plugin = config.plugin!;

/** The readable form when the bytes decode, else what they are. */
function readable(bytes: Uint8Array, decode: (b: Uint8Array) => unknown): unknown {
  try {
    return decode(bytes);
  } catch (error) {
    return { undecodable: (error as Error).message, base64: Buffer.from(bytes).toString('base64') };
  }
}

for (const suite of loadPluginSuites(PLUGIN_SUITES_DIR, config.suites)) {
  test.describe(suite.name, () => {
    for (const testCase of suite.cases) {
      const level = strongestLevel(testCase.requirements, registry);
      const annotation = [
        { type: 'case', description: `${suite.name}/${testCase.id}` },
        { type: 'level', description: level },
        ...testCase.requirements.map((id) => ({ type: 'requirement', description: id })),
      ];
      test(testCase.title, { tag: [`@${level}`, `@${suite.name}`], annotation }, async ({}, testInfo) => {
        const onRun = async ({ stdin, result }: PluginRunRecord, index: number) => {
          const record = {
            request: readable(stdin, (b) => readableRequest(decodeRequest(b))),
            exit: { code: result.exitCode, signal: result.signal, timedOut: result.timedOut, truncated: result.truncated },
            response: readable(result.stdout, (b) => readableResponse(decodeResponse(b))),
            stderr: result.stderr.toString('utf8'),
          };
          await testInfo.attach(`run ${index + 1}`, { body: JSON.stringify(record, null, 2), contentType: 'application/json' });
        };
        const result = await runPluginCase(testCase, { command: plugin.command, describe: describeFixtures, registry, strict: config.strict, limits: plugin, onRun });
        await testInfo.attach(OUTCOME_ATTACHMENT, { body: JSON.stringify(result), contentType: 'application/json' });
        if (result.outcome === 'FAIL' || result.outcome === 'ERROR') throw new Error(result.message);
      });
    }
  });
}
