// `touchstone mutate` through the real command, and the fault registry held equal to the
// faults the reference implementations really have.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KillMatrix } from '../mutate/kill-matrix.js';
import { loadFaultRegistry, loadVariantRegistry } from '../mutate/switch-registry.js';
import type { Results } from '../core/results.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { runCli } from '../../test-support/cli-process.js';
import { checkRegistryAgainstReferences } from './mutate.js';

test('suites/faults and suites/variants describe exactly the faults and variations the reference service, plugin and compiler have', async () => {
  const registry = loadRequirementRegistry(suitePaths.requirements);
  const faults = loadFaultRegistry(suitePaths.faults, registry);
  const variants = loadVariantRegistry(suitePaths.variants, registry);
  expect(await checkRegistryAgainstReferences(faults, variants)).toEqual([]);
});

// The whole matrix (every fault, and every variation against every case of its side: about 7
// minutes on two cores) is .ci/run's `touchstone mutate`; these run the same command narrowed.
test('one suite: each fault caught by a case citing what it breaks, each variation accepted by every case of the suite', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'touchstone-mutate-'));
  const run = await runCli(['mutate', '--suite', 'interaction-limits', '--out', out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const matrix = JSON.parse(readFileSync(path.join(out, 'kill-matrix.json'), 'utf8')) as KillMatrix;
  const registry = loadRequirementRegistry(suitePaths.requirements);
  // Every switch of the area is in the run (and some shared ones whose requirements its cases cite).
  const own = (id: string) => id.startsWith('limits.');
  const faults = loadFaultRegistry(suitePaths.faults, registry).filter((f) => own(f.id));
  const variants = loadVariantRegistry(suitePaths.variants, registry).filter((v) => own(v.id));
  expect(faults.length).toBeGreaterThan(10);
  expect(variants.length).toBeGreaterThan(5);
  expect(
    matrix.faults
      .filter((f) => own(f.id))
      .map((f) => f.id)
      .sort(),
  ).toEqual(faults.map((f) => f.id).sort());
  expect(
    matrix.variants
      .filter((v) => own(v.id))
      .map((v) => v.id)
      .sort(),
  ).toEqual(variants.map((v) => v.id).sort());
  expect(matrix).toMatchObject({ uncaught: [], uncovered: [], false_failures: [], rejected: [] });
  expect(matrix.faults.filter((f) => f.misattributed.length > 0)).toEqual([]);
  expect(matrix.sensitivity).toEqual({ caught: matrix.faults.length, total: matrix.faults.length });
  expect(matrix.specificity).toEqual({ conforming: matrix.variants.length, total: matrix.variants.length });
  // A variation runs every case in scope, not only those citing what it reads otherwise.
  const calendar = matrix.variants.find((v) => v.id === 'limits.calendar-months')!;
  expect(calendar.runs).toHaveLength(matrix.baseline_cases);
  // The calendar reading of one_month passes the MUST case and warns only in the case naming the reference's choice.
  expect(calendar.runs.filter((r) => r.outcome !== 'PASS').map((r) => `${r.case} ${r.outcome}`)).toEqual([
    'interaction-limits/repo-put-month-as-days WARN',
  ]);
  expect(run.stdout).toMatch(/caught {2}limits\.org-put-skips-repositories +by interaction-limits\/org-put-overwrites-repository-limits/);
  expect(run.stdout).toMatch(
    /allowed limits\.calendar-months +by \d+ cases, a choice warned in interaction-limits\/repo-put-month-as-days/,
  );
  expect(run.stdout).toContain('touchstone: kill matrix COMPLETE');
  expect(run.stdout).toContain(`sensitivity 100%: ${matrix.faults.length} of ${matrix.faults.length} faults caught`);
  expect(run.stdout).toContain(`specificity 100%: ${matrix.variants.length} of ${matrix.variants.length} variations judged conforming`);
  // The faultless run's report shows, per requirement, its faults and the cases that caught them.
  const results = JSON.parse(readFileSync(path.join(out, 'service', 'results.json'), 'utf8')) as Results;
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

test('the compiler side: a fault caught, a variation of an order spec 3 leaves open accepted by every case', async () => {
  test.slow(); // a compiler process per case and switch
  const out = mkdtempSync(path.join(os.tmpdir(), 'touchstone-mutate-'));
  const run = await runCli([
    'mutate',
    '--side',
    'compiler',
    '--fault',
    'compiler.generators-reversed',
    '--variant',
    'compiler.proto-file-by-depth',
    '--out',
    out,
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const matrix = JSON.parse(readFileSync(path.join(out, 'kill-matrix.json'), 'utf8')) as KillMatrix;
  expect(matrix.faults.map((f) => [f.id, f.caught_by])).toEqual([['compiler.generators-reversed', ['apply/insertion-across-generators']]]);
  expect(matrix.variants.map((v) => [v.id, v.runs.length, v.rejected_by])).toEqual([
    ['compiler.proto-file-by-depth', matrix.baseline_cases, []],
  ]);
});

test('mutate refuses an unknown side', async () => {
  const run = await runCli(['mutate', '--side', 'toaster']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('unknown side toaster; known: service, plugin, compiler');
});
