// Turns every case of the run's plan (run-plan.ts) into one Playwright test, for every kind of
// run: tags carry the level and suite, an annotation the case's id, and the outcome travels to
// the conformance reporter in an annotation (case-test.ts).
import { readRunConfig } from '../core/run-config.js';
import { caseTestDetails, handOverOutcome } from './case-test.js';
import { engineTest } from './engine-test.js';
import { readRunPlan, type PlannedCase } from './run-plan.js';

const config = readRunConfig();
const plan = readRunPlan(config);
const test = engineTest(config, plan);

const suites = new Map<string, PlannedCase[]>();
for (const planned of plan.cases) suites.set(planned.facts.suite, [...(suites.get(planned.facts.suite) ?? []), planned]);

for (const [suite, cases] of suites) {
  test.describe(suite, () => {
    for (const planned of cases) {
      test(planned.facts.title, caseTestDetails(planned.facts), async ({ executor }, testInfo) => {
        handOverOutcome(testInfo, await executor.run(planned));
      });
    }
  });
}
