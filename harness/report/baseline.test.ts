import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyBaseline, readBaseline } from './baseline.js';
import type { CaseResult, Outcome } from '../core/results.js';

const result = (id: string, outcome: Outcome): CaseResult => ({
  id,
  suite: id.split('/')[0],
  title: id,
  outcome,
  level: 'MUST',
  requirements: ['r'],
  endpoints: [],
  aspects: [],
  duration_ms: 1,
  ...(outcome === 'PASS' ? {} : { message: 'why' }),
});

test('a listed failure or warning becomes XFAIL, a listed pass is a stale entry that fails, others are untouched', () => {
  const baseline = [
    { case: 's/failing', reason: 'bug 12' },
    { case: 's/warning', reason: 'wontfix' },
    { case: 's/fixed', reason: 'bug 7' },
    { case: 's/skipped', reason: 'r' },
  ];
  const cases = [
    result('s/failing', 'FAIL'),
    result('s/warning', 'WARN'),
    result('s/fixed', 'PASS'),
    result('s/skipped', 'SKIP'),
    result('s/other', 'FAIL'),
  ];
  const applied = applyBaseline(cases, baseline, 'known.yaml');
  expect(applied.map((c) => c.outcome)).toEqual(['XFAIL', 'XFAIL', 'FAIL', 'SKIP', 'FAIL']);
  expect(applied[0].message).toBe('known failure (bug 12): why');
  expect(applied[2].message).toBe('stale baseline entry: the case passes now; remove s/fixed from known.yaml');
});

test('a baseline file is read from YAML, and a malformed one is a clear error', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-baseline-'));
  const good = path.join(dir, 'good.yaml');
  writeFileSync(good, '- case: assignees/add-assignee\n  reason: upstream bug 42\n');
  expect(readBaseline(good)).toEqual([{ case: 'assignees/add-assignee', reason: 'upstream bug 42' }]);
  const bad = path.join(dir, 'bad.yaml');
  writeFileSync(bad, 'assignees/add-assignee: bug\n');
  expect(() => readBaseline(bad)).toThrow(/a baseline is a list of \{case/);
  expect(() => readBaseline(path.join(dir, 'missing.yaml'))).toThrow(/--baseline .*missing\.yaml/);
});
