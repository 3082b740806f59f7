// --last-failed through the real commands: a run that failed, then only its failed cases run
// again, against the same target and against one that is fixed; for run and for plugin.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { runCli, startServe, tokensFile } from '../../test-support/cli-process.js';

test.describe.configure({ mode: 'parallel', timeout: 240_000 });

let cwd: string;
test.beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'touchstone-last-failed-cli-'));
});
test.afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const latest = (): Results => JSON.parse(readFileSync(path.join(cwd, 'reports', 'latest', 'results.json'), 'utf8')) as Results;
const outcomes = (results: Results) => Object.fromEntries(results.cases.map((c) => [c.id, c.outcome]));

const CONFLICTS = ['interaction-limits/repo-conflict-with-org-limit', 'interaction-limits/repo-conflict-with-user-limit'];

test('run --last-failed runs again only what failed in reports/latest; fixed, they pass; then nothing is left to run', async () => {
  const env = { ADMIN_TOKEN: readWorldTokens()['repo-admin'] };
  const none = await runCli(['run', '--last-failed'], env, cwd);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('no reports/latest here');

  const server = await startServe(['--fault', 'limits.owner-limit-ignored']);
  try {
    const target = ['--target', server.url, '--tokens', tokensFile(cwd)];
    const first = await runCli(['run', ...target, '--suite', 'interaction-limits', '--suite', 'assignees'], env, cwd);
    expect(first.code, first.stdout + first.stderr).toBe(1);
    const failed = latest()
      .cases.filter((c) => c.outcome === 'FAIL')
      .map((c) => c.id);
    expect(failed).toEqual(CONFLICTS);

    const again = await runCli(['run', ...target, '--last-failed'], env, cwd);
    expect(again.code, again.stdout + again.stderr).toBe(1);
    expect(again.stdout).toContain('--last-failed: running the 2 cases that failed in reports/latest (');
    expect(outcomes(latest())).toEqual({ [CONFLICTS[0]]: 'FAIL', [CONFLICTS[1]]: 'FAIL' });
    // Its scope is what it ran, so its coverage and verdict claim no more.
    expect(latest().scope).toMatchObject({ only: CONFLICTS });

    const one = await runCli(['run', ...target, '--last-failed', '--only', CONFLICTS[1]], env, cwd);
    expect(one.code).toBe(1);
    expect(Object.keys(outcomes(latest()))).toEqual([CONFLICTS[1]]);

    // The latest report now holds one failed case, of no suite --suite contents loads.
    const elsewhere = await runCli(['run', ...target, '--last-failed', '--suite', 'contents'], env, cwd);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`the case that failed in reports/latest (`);
    expect(elsewhere.stderr).toContain(`is not among the cases --suite selects: ${CONFLICTS[1]}`);
    const plugin = await runCli(['plugin', '--plugin', 'cat', '--last-failed'], env, cwd);
    expect(plugin.code).toBe(2);
    expect(plugin.stderr).toContain('is the report of a service run (touchstone run)');
  } finally {
    await server.stop();
  }

  // The embedded reference has no fault: the case passes, and the next --last-failed has nothing to do.
  const fixed = await runCli(['run', '--last-failed'], env, cwd);
  expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
  expect(outcomes(latest())).toEqual({ [CONFLICTS[1]]: 'PASS' });
  const nothing = await runCli(['run', '--last-failed'], env, cwd);
  expect(nothing.code).toBe(0);
  expect(nothing.stdout).toMatch(/--last-failed: no case failed in reports\/latest \(.*\): nothing to run/);
});

test('plugin --last-failed runs again the cases a plugin failed; the plugin fixed, they pass', async () => {
  const reference = `node ${path.join(PROJECT_ROOT, 'bin', 'protoc-gen-touchstone.js')}`;
  const faulty = `${reference} --fault=plugin.absolute-names`;
  const first = await runCli(['plugin', '--plugin', faulty], {}, cwd);
  expect(first.code, first.stdout + first.stderr).toBe(1);
  const failed = latest().cases.filter((c) => c.outcome === 'FAIL' || c.outcome === 'ERROR');
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.length).toBeLessThan(latest().cases.length);
  const failedIds = failed.map((c) => c.id);

  const again = await runCli(['plugin', '--plugin', faulty, '--last-failed'], {}, cwd);
  expect(again.code, again.stdout + again.stderr).toBe(1);
  expect(Object.keys(outcomes(latest()))).toEqual(failedIds);

  const fixed = await runCli(['plugin', '--plugin', reference, '--last-failed'], {}, cwd);
  expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
  expect(outcomes(latest())).toEqual(Object.fromEntries(failedIds.map((id) => [id, 'PASS'])));
});
