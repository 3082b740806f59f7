// `touchstone run --reporter`: the whole command chooses its report files, and `github` writes
// annotations at the failing case's suite line and appends the step summary.
import { expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { runCli } from '../../test-support/cli-process.js';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test('run --reporter github: an ::error at the suite line of the failing case, the summary appended to $GITHUB_STEP_SUMMARY, and only results.json of the files', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-reporter-'));
  const out = path.join(dir, 'out');
  // A passing case listed as a known failure is a stale entry: the case FAILs.
  const baseline = path.join(dir, 'baseline.yaml');
  writeFileSync(baseline, 'known:\n  - case: conventions/bearer-scheme\n    reason: "bug 1"\n');
  const summary = path.join(dir, 'step_summary.md');
  writeFileSync(summary, '## an earlier step\n');
  // A report of an earlier run into the same folder, of a reporter not chosen now, goes.
  const earlier = await runCli(['run', '--only', 'conventions/bearer-scheme', '--reporter', 'html', '--out', out]);
  expect(earlier.code, earlier.stderr).toBe(0);
  expect(existsSync(path.join(out, 'report.html'))).toBe(true);

  const result = await runCli(
    ['run', '--only', 'conventions/bearer-scheme', '--baseline', baseline, '--reporter', 'github', '--out', out],
    { GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: PROJECT_ROOT },
  );
  expect(result.code, result.stderr).toBe(1);
  const annotation = result.stdout.split('\n').find((line) => line.startsWith('::error file='));
  const suiteFile = 'suites/service/conventions/conventions.yaml';
  const line = readFileSync(path.join(PROJECT_ROOT, suiteFile), 'utf8').split('\n').indexOf('  - id: bearer-scheme') + 1;
  expect(line).toBeGreaterThan(0);
  expect(annotation).toMatch(
    new RegExp(`^::error file=${suiteFile},line=${line},title=FAIL conventions/bearer-scheme%3A [^:]+::.*stale.*%0Arun again: `),
  );
  // A stale entry breaks no requirement: the verdict is conforming, so it gets no annotation of its own.
  expect(result.stdout).not.toContain('title=touchstone%3A');
  expect(result.stdout).toContain(`reports: ${out}/{results.json,repro.sh}`);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  expect(results.cases[0].source).toEqual({ file: suiteFile, line });

  const written = readFileSync(summary, 'utf8');
  expect(written.startsWith('## an earlier step\n')).toBe(true);
  expect(written).toContain('`conventions/bearer-scheme`');
  expect(readdirSync(out).sort()).toEqual(['repro.sh', 'results.json']);

  const mistyped = await runCli(['run', '--reporter', 'junit,htm', '--out', path.join(dir, 'never')]);
  expect(mistyped.code).toBe(2);
  expect(mistyped.stderr).toContain('--reporter htm is not a reporter (did you mean html?)');
  expect(existsSync(path.join(dir, 'never'))).toBe(false);
});

test('a run into the default reports/<timestamp> makes reports/latest a relative link to it; --out reports/latest is refused while it is the link', async () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'touchstone-latest-run-'));
  const result = await runCli(['run', '--only', 'conventions/bearer-scheme', '--reporter', 'json'], {}, cwd);
  expect(result.code, result.stderr).toBe(0);
  const [folder] = readdirSync(path.join(cwd, 'reports')).filter((name) => name !== 'latest');
  expect(folder).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
  expect(readlinkSync(path.join(cwd, 'reports', 'latest'))).toBe(folder);
  expect(existsSync(path.join(cwd, 'reports', 'latest', 'results.json'))).toBe(true);

  const onto = await runCli(['run', '--only', 'conventions/bearer-scheme', '--out', 'reports/latest'], {}, cwd);
  expect(onto.code).toBe(2);
  expect(onto.stderr).toContain("--out reports/latest is the link to the latest run's reports: writing there would overwrite that run");
  expect(readlinkSync(path.join(cwd, 'reports', 'latest'))).toBe(folder);
});
