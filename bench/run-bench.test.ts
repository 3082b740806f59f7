// Smoke test of `npm run bench:run` on one small suite: the run's requests are recorded and
// replayed with the same statuses, both runs happen, and the table has its rows. No timing is
// asserted (the machine is shared; figures belong to the bench itself).
import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { suitePaths } from '../harness/core/suite-paths.js';
import { loadSuites } from '../harness/suite/suite-loader.js';

test('bench:run records a run, replays its requests bare, and compares the runs of 1 and 2 workers with it', () => {
  test.setTimeout(240_000);
  const run = spawnSync('npx', ['tsx', 'bench/run-bench.ts'], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_SUITE: 'devenv-secrets', BENCH_NO_FAIL: '1', BENCH_NO_BUILD: '1' },
    timeout: 230_000,
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const cases = loadSuites(suitePaths.service, ['devenv-secrets'])[0].cases.length;
  expect(run.stdout).toMatch(/recorded: [1-9]\d* requests/);
  expect(run.stdout).toMatch(/bare replay 1: [1-9]\d* requests in \d+\.\d\d s \(0 with another status than recorded\)/);
  expect(run.stdout).toContain(`run-1-worker-1: ${cases} cases`);
  expect(run.stdout).toContain(`run-2-workers-1: ${cases} cases`);
  expect(run.stdout).toMatch(/\| run \(1 worker\) \/ bare replay +\| \d+\.\d\d s +\| \d+\.\d\d s +\| \d+\.\d\d/);
  expect(run.stdout).toMatch(/\| run: 1 worker \/ 2 workers +\| \d+\.\d\d s/);
});
