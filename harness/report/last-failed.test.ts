// --last-failed reads reports/latest: which cases it runs again, and what it refuses to read.
import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { Results } from '../core/results.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { readLastFailed } from './last-failed.js';

let cwd: string;
test.beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'touchstone-last-failed-'));
});
test.afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** `results` as the run into reports/RUN that reports/latest points at. */
function latestRun(results: Results, run = '2025-11-22T12-00-00Z'): void {
  mkdirSync(path.join(cwd, 'reports', run), { recursive: true });
  writeFileSync(path.join(cwd, 'reports', run, 'results.json'), JSON.stringify(results));
  symlinkSync(run, path.join(cwd, 'reports', 'latest'));
}

const usageError = (call: () => unknown): HarnessError => {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('USAGE');
    return error as HarnessError;
  }
  throw new Error('no error');
};

test('the cases run again are the FAIL and ERROR ones, in the order of the run; not WARN, XFAIL, SKIP or PASS', () => {
  const results = createResultsFixture();
  latestRun(results);
  const outcomes = new Set(results.cases.map((c) => c.outcome));
  // The fixture has every outcome, so each is seen being taken or left.
  expect([...outcomes].sort()).toEqual(['ERROR', 'FAIL', 'PASS', 'SKIP', 'WARN', 'XFAIL']);
  const read = readLastFailed('service', cwd);
  expect(read.report).toBe('reports/latest (2025-11-22T12-00-00Z)');
  expect(read.cases).toEqual(results.cases.filter((c) => c.outcome === 'FAIL' || c.outcome === 'ERROR').map((c) => c.id));
  expect(read.cases.length).toBeGreaterThan(1);
});

test('no reports/latest, or the latest report of another kind of run, is a usage error saying what to run', () => {
  expect(usageError(() => readLastFailed('service', cwd)).message).toBe(
    'no reports/latest here (a run into reports/ makes it): --last-failed reads the latest report: run touchstone run without it first',
  );
  latestRun(createResultsFixture());
  expect(usageError(() => readLastFailed('plugin', cwd)).message).toBe(
    'reports/latest (2025-11-22T12-00-00Z) is the report of a service run (touchstone run): touchstone plugin --last-failed runs again the cases that failed in a plugin run',
  );
});
