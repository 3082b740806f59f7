import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyBaseline, readBaseline, unknownBaselineCases, type Baseline } from './baseline.js';
import { updateBaseline } from './baseline-update.js';
import type { CaseResult, Outcome } from '../core/results.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';

const result = (id: string, outcome: Outcome, message = 'MUST r: expected status 201, got status 200'): CaseResult => ({
  id,
  suite: id.split('/')[0],
  title: id,
  outcome,
  level: 'MUST',
  requirements: ['r'],
  endpoints: [],
  aspects: [],
  started_at: new Date(0).toISOString(),
  duration_ms: 1,
  ...(outcome === 'PASS' ? {} : { message }),
});
const TODAY = '2026-11-25';
const apply = (baseline: Partial<Baseline>, cases: CaseResult[]) =>
  applyBaseline(cases, { known: [], flaky: [], ...baseline }, 'known.yaml', TODAY).map((c) => [c.outcome, c.message]);

test('a listed failure or warning becomes XFAIL; a listed pass is stale and a listed skip unchecked: both fail; others are untouched', () => {
  const known = ['failing', 'warning', 'fixed', 'skipped', 'errored'].map((id) => ({ case: `s/${id}`, reason: `bug ${id}` }));
  const cases = [
    result('s/failing', 'FAIL'),
    result('s/warning', 'WARN'),
    result('s/fixed', 'PASS'),
    result('s/skipped', 'SKIP', 'no token for role admin'),
    result('s/errored', 'ERROR', 'connection reset'),
    result('s/other', 'FAIL'),
  ];
  const applied = applyBaseline(cases, { known, flaky: [] }, 'known.yaml', TODAY);
  expect(applied.map((c) => c.outcome)).toEqual(['XFAIL', 'XFAIL', 'FAIL', 'FAIL', 'ERROR', 'FAIL']);
  expect(applied[0].message).toBe('known failure (bug failing): MUST r: expected status 201, got status 200');
  expect(applied[0].baseline).toEqual({ list: 'known', reason: 'bug failing', was: 'FAIL', was_message: cases[0].message });
  expect(applied[2].message).toBe('stale baseline entry: the case passes now; remove s/fixed from known.yaml');
  expect(applied[3].message).toBe('listed in known.yaml as a known failure, but skipped, so not checked: no token for role admin');
  expect(applied[5]).toBe(cases[5]);
});

test('an entry holds until the end of its expiry day, and only for a failure that carries its expected message', () => {
  const failing = [result('s/a', 'FAIL')];
  expect(apply({ known: [{ case: 's/a', reason: 'r', expires: TODAY }] }, failing)[0][0]).toBe('XFAIL');
  expect(apply({ known: [{ case: 's/a', reason: 'r', expires: '2026-11-24' }] }, failing)[0]).toEqual([
    'FAIL',
    'the known.yaml entry for s/a expired on 2026-11-24 (r): MUST r: expected status 201, got status 200',
  ]);
  expect(apply({ known: [{ case: 's/a', reason: 'r', message: 'got status 200' }] }, failing)[0][0]).toBe('XFAIL');
  expect(apply({ known: [{ case: 's/a', reason: 'r', message: 'got status 500' }] }, failing)[0]).toEqual([
    'FAIL',
    'fails differently than known.yaml expects ("got status 500"): MUST r: expected status 201, got status 200',
  ]);
});

test('a flaky case: a failure is XFAIL, a pass or a skip stays what it is', () => {
  const flaky = [{ case: 's/a', reason: 'races' }];
  expect(apply({ flaky }, [result('s/a', 'FAIL')])[0]).toEqual([
    'XFAIL',
    'known flaky (races): MUST r: expected status 201, got status 200',
  ]);
  expect(apply({ flaky }, [result('s/a', 'PASS')])[0]).toEqual(['PASS', undefined]);
  expect(apply({ flaky }, [result('s/a', 'SKIP', 'why')])[0]).toEqual(['SKIP', 'why']);
});

test('a baseline file is a list or {known, flaky}; a malformed one, a case listed twice, a bad date are clear errors', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-baseline-'));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  expect(readBaseline(file('list.yaml', '- case: assignees/add-assignee\n  reason: upstream bug 42\n'))).toEqual({
    known: [{ case: 'assignees/add-assignee', reason: 'upstream bug 42' }],
    flaky: [],
  });
  const both = readBaseline(
    file(
      'both.yaml',
      'known:\n  - {case: a/b, reason: r, expires: 2027-01-31, message: got 200}\nflaky:\n  - {case: c/d, reason: races}\n',
    ),
  );
  expect(both.flaky).toEqual([{ case: 'c/d', reason: 'races' }]);
  expect(unknownBaselineCases(both, new Set(['a/b']))).toEqual(['c/d']);
  expect(() => readBaseline(file('map.yaml', 'assignees/add-assignee: bug\n'))).toThrow(/map\.yaml.*invalid/);
  expect(() => readBaseline(file('date.yaml', '- {case: a/b, reason: r, expires: soon}\n'))).toThrow(/expires must match format "date"/);
  expect(() => readBaseline(file('twice.yaml', '- {case: a/b, reason: r}\n- {case: a/b, reason: s}\n'))).toThrow(
    /a\/b listed more than once/,
  );
  expect(() => readBaseline(path.join(dir, 'missing.yaml'))).toThrow(/missing\.yaml/);
});

test('baseline update adds new failures and keeps comments; --fix also drops passing entries and takes changed messages', () => {
  const results = createResultsFixture();
  // The fixture: assignees/single-page-omits-link FAIL, conventions/vnd-media-type WARN, interaction-limits/org-put-invalid-limit-422 XFAIL (listed).
  const xfail = results.cases.find((c) => c.outcome === 'XFAIL')!;
  xfail.baseline = { list: 'known', reason: 'bug 9', was: 'FAIL', was_message: 'MUST x: expected status 422, got status 200' };
  const text = [
    '# known failures of impl.example',
    'known:',
    `  - case: ${xfail.id}`,
    '    reason: bug 9 # tracked upstream',
    '    message: got status 500',
    '  - case: assignees/list-returns-users',
    '    reason: fixed since',
    '',
  ].join('\n');
  const plain = updateBaseline(text, 'known.yaml', results, { fix: false, today: TODAY });
  expect(plain.changes.map((c) => [c.kind, c.case, c.written])).toEqual([
    ['passes', 'assignees/list-returns-users', false],
    ['added', 'assignees/single-page-omits-link', true],
    ['added', 'conventions/vnd-media-type', true],
    ['differs', xfail.id, false],
  ]);
  expect(plain.text).toContain('# known failures of impl.example');
  expect(plain.text).toContain('reason: bug 9 # tracked upstream');
  expect(plain.text).toContain('case: assignees/list-returns-users');
  expect(plain.text).toContain(`reason: "new failure on ${TODAY}: say why it is accepted"`);

  const fixed = updateBaseline(plain.text, 'known.yaml', results, { fix: true, today: TODAY });
  expect(fixed.changes.map((c) => [c.kind, c.case])).toEqual([
    ['removed', 'assignees/list-returns-users'],
    ['message', xfail.id],
  ]);
  expect(fixed.text).not.toContain('assignees/list-returns-users');
  expect(fixed.text).toContain('message: "MUST x: expected status 422, got status 200"');
  // Applied to the same run, the fixed file excuses exactly its failures: nothing is left to change.
  expect(updateBaseline(fixed.text, 'known.yaml', results, { fix: true, today: TODAY }).changes).toEqual([]);
  expect(() => updateBaseline('known: [{case: nope}]', 'known.yaml', results, { fix: false, today: TODAY })).toThrow(
    /known\.yaml: invalid/,
  );
});
