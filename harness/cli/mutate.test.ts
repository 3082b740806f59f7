// `touchstone mutate` through the real command, and the fault registry held equal to the
// faults the reference implementations really have.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KillMatrix } from '../mutate/kill-matrix.js';
import { loadFaultRegistry } from '../mutate/fault-registry.js';
import type { Results } from '../core/results.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { runCli } from './cli-process.js';
import { checkRegistryAgainstReferences } from './mutate.js';

test('suites/faults describes exactly the faults the reference service, plugin and compiler have', async () => {
  const faults = loadFaultRegistry(suitePaths.faults, loadRequirementRegistry(suitePaths.requirements));
  expect(await checkRegistryAgainstReferences(faults)).toEqual([]);
});

test('the kill matrix of every side: each fault caught by a case citing what it breaks, no false failure, every MUST covered', async () => {
  test.slow(); // about 40 s on two cores: a process per plugin and compiler run
  const out = mkdtempSync(path.join(os.tmpdir(), 'touchstone-mutate-'));
  const run = await runCli(['mutate', '--out', out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const matrix = JSON.parse(readFileSync(path.join(out, 'kill-matrix.json'), 'utf8')) as KillMatrix;
  const faults = loadFaultRegistry(suitePaths.faults, loadRequirementRegistry(suitePaths.requirements));
  expect(matrix.faults.map((f) => f.id).sort()).toEqual(faults.map((f) => f.id).sort());
  expect(matrix.faults.filter((f) => f.caught_by.length === 0 || f.misattributed.length > 0)).toEqual([]);
  expect(matrix).toMatchObject({ uncaught: [], uncovered: [], false_failures: [] });
  const caughtBy = (id: string) => matrix.faults.find((f) => f.id === id)?.caught_by;
  expect(caughtBy('assignees.more-than-ten')).toContain('assignees/add-at-most-ten');
  expect(caughtBy('plugin.nondeterministic')).toEqual(['io/deterministic']);
  expect(caughtBy('compiler.generators-reversed')).toEqual(['apply/insertion-across-generators']);
  expect(run.stdout).toMatch(/caught {2}limits\.org-put-skips-repositories +by interaction-limits\/org-put-overwrites-repository-limits/);
  expect(run.stdout).toContain(`touchstone: kill matrix COMPLETE: ${faults.length} of ${faults.length} faults caught, 0 false failures`);
  // The faultless run's report shows, per requirement, its faults and the cases that caught them.
  const results = JSON.parse(readFileSync(path.join(out, 'service', 'results.json'), 'utf8')) as Results;
  expect(results.verdict).toBe('conforming');
  const conflict = results.requirements.find((r) => r.id === 'interaction-limits.repo-conflict-409')!;
  expect(conflict.faults).toEqual([
    {
      id: 'limits.owner-limit-ignored',
      caught_by: ['interaction-limits/repo-conflict-with-org-limit', 'interaction-limits/repo-conflict-with-user-limit'],
    },
  ]);
  expect(readFileSync(path.join(out, 'service', 'report.html'), 'utf8')).toContain(
    'data-fault="limits.owner-limit-ignored" data-caught="true"',
  );
});

test('mutate refuses an unknown side', async () => {
  const run = await runCli(['mutate', '--side', 'toaster']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('unknown side toaster; known: service, plugin, compiler');
});
