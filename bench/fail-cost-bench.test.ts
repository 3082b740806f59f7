// Smoke test of `npm run bench:fail-cost` on a small suite: both runs happen, the table has
// its rows, and the mock target makes cases FAIL. No timing is asserted (the machine is
// shared; figures belong to the bench itself).
import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { suitePaths } from '../harness/core/suite-paths.js';
import { loadSuites } from '../harness/suite/suite-loader.js';

test('bench:fail-cost runs a suite against a failing mock and the reference, and compares the idle time after FAIL and PASS', () => {
  test.setTimeout(180_000);
  const run = spawnSync('npx', ['tsx', 'bench/fail-cost-bench.ts'], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_SUITE: 'devenv-secrets', BENCH_NO_FAIL: '1' },
    timeout: 170_000,
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const cases = loadSuites(suitePaths.service, ['devenv-secrets'])[0].cases.length;
  expect(run.stdout).toMatch(new RegExp(`failing: ${cases} cases \\{.*"FAIL":[1-9]`));
  expect(run.stdout).toContain(`passing: ${cases} cases {"PASS":${cases}}`);
  expect(run.stdout).toMatch(/\| idle after a FAIL \/ after a PASS +\| \d+\.\d{3} s +\| \d+\.\d{3} s +\| \d+\.\d\d/);
  expect(run.stdout).toMatch(/\| failing run: wall \/ summed case time/);
});
