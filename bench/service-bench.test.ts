// Smoke test of `npm run bench:service` at toy length: it measures both endpoints of the
// reference against a bare server sending the same answer (serialized per request, and as
// canned bytes), with no bad answer. No timing is asserted (the machine is shared; figures
// belong to the bench itself).
import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { skipUnlessInstalled } from '../test-support/required-tool.js';
import { wrkInstalled } from './load-runner.js';

test('bench:service measures the reference against the same answer from a bare server, every answer good', () => {
  test.setTimeout(120_000);
  skipUnlessInstalled(test, wrkInstalled(), 'wrk not found: apt-get install wrk', 'TOUCHSTONE_REQUIRE_WRK');
  const run = spawnSync('npx', ['tsx', 'bench/service-bench.ts'], {
    encoding: 'utf8',
    // BENCH_NO_BUILD: other tests run beside this one, so dist/ is not rebuilt under them.
    env: { ...process.env, BENCH_ROUNDS: '1', BENCH_DURATION: '1', BENCH_NO_FAIL: '1', BENCH_CONNECTIONS: '4', BENCH_NO_BUILD: '1' },
    timeout: 100_000,
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain('wrk, 1 × 1 s per side');
  const rows = run.stdout.split('\n').filter((line) => line.startsWith('| reference '));
  // Per endpoint: against the bare server serializing the same JSON (the target), and against canned bytes (information).
  expect(rows.filter((row) => row.includes(' / bare http '))).toHaveLength(2);
  expect(rows.filter((row) => row.includes(' / canned bytes '))).toHaveLength(2);
  for (const row of rows) {
    expect(row).toMatch(/\| \d+ req\/s +\| \d+ req\/s +\| \d\.\d\d/);
    expect(row).not.toContain('invalid');
  }
});
