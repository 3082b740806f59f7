// The comparison of runs: what counts as a regression, how rows sort, what the pages say,
// and the pages (the command and its exit code: harness/cli/report-cli.test.ts).
import { expect, test } from '@playwright/test';
import { sha256 } from '../core/fingerprint.js';
import { createResultsFixture, withOutcomes } from '../../test-support/results-fixture.js';
import { compareRuns, comparisonHeadline, runLabels } from './compare-runs.js';
import { renderCompareMarkdown } from './compare-markdown.js';
import { renderCompareHtml } from './compare-html.js';

const after = withOutcomes;

test('a case worse than in the first run regressed; one now SKIP is no longer checked, never newly failing nor fixed; better is fixed; regressions sort first', () => {
  const before = createResultsFixture();
  const comparison = compareRuns([
    { label: 'before', results: before },
    {
      label: 'after',
      results: after({
        'auth/anonymous-put-limits-401': 'FAIL',
        'assignees/per-page-max': 'SKIP',
        'assignees/single-page-omits-link': 'PASS',
        'conventions/vnd-media-type': 'ERROR',
      }),
    },
  ]);
  const changes = Object.fromEntries(comparison.cases.map((c) => [c.id, c.change]));
  expect(changes).toMatchObject({
    'auth/anonymous-put-limits-401': 'regressed',
    'assignees/per-page-max': 'unchecked',
    'conventions/vnd-media-type': 'regressed',
    'assignees/single-page-omits-link': 'fixed',
    'assignees/list-returns-users': 'same',
  });
  expect(comparison.cases.slice(0, 4).map((c) => c.change)).toEqual(['regressed', 'regressed', 'unchecked', 'fixed']);
  expect(comparison.regressions.cases).toBe(2);
  expect(comparison.unchecked.cases).toBe(1);
  expect(comparison.requirements.find((r) => r.id === 'pagination.per-page-max')).toMatchObject({
    cells: ['PASS', 'UNTESTED'],
    change: 'unchecked',
  });
  expect(comparisonHeadline(comparison)).toMatch(
    /^2 newly failing cases, \d+ requirements? worse, 1 case no longer checked, 1 requirement no longer checked against before$/,
  );
  expect(comparison.notes).toEqual([]);

  const markdown = renderCompareMarkdown(comparison);
  const newlyFailing = markdown.slice(markdown.indexOf('### Newly failing cases'), markdown.indexOf('### Requirements now worse'));
  expect(newlyFailing).toContain('### Newly failing cases (2)');
  expect(newlyFailing).not.toContain('per-page-max');
  expect(markdown).toMatch(/### Cases no longer checked \(1\)\n\n.*\n.*\n\| `assignees\/per-page-max` \| PASS \| \*\*SKIP\*\* \|/);
  const page = renderCompareHtml(comparison);
  expect(page).toContain('Newly failing (2)');
  expect(page).toContain('No longer checked (1)');
});

test('a FAIL now SKIP is no longer checked, not fixed; a SKIP now PASS is fixed, a SKIP now FAIL newly failing', () => {
  const before = after({
    'assignees/list-returns-users': 'FAIL',
    'assignees/per-page-max': 'SKIP',
    'auth/anonymous-put-limits-401': 'SKIP',
  });
  const comparison = compareRuns([
    { label: 'before', results: before },
    {
      label: 'after',
      results: after({ 'assignees/list-returns-users': 'SKIP', 'assignees/per-page-max': 'PASS', 'auth/anonymous-put-limits-401': 'FAIL' }),
    },
  ]);
  const changes = Object.fromEntries(comparison.cases.map((c) => [c.id, c.change]));
  expect(changes).toMatchObject({
    'assignees/list-returns-users': 'unchecked',
    'assignees/per-page-max': 'fixed',
    'auth/anonymous-put-limits-401': 'regressed',
  });
});

test('the "another configuration" note says what the results record differently', () => {
  const first = createResultsFixture();
  const second = createResultsFixture();
  second.fingerprint.config = sha256('other');
  second.strict = true;
  second.scope.suites = ['assignees'];
  second.gaps.capabilities = ['control.reset'];
  const [note] = compareRuns([
    { label: 'main', results: first },
    { label: 'branch', results: second },
  ]).notes;
  expect(note).toBe(
    `branch ran with another configuration than main (strictness: not strict in main, --strict in branch; suites: all in main, assignees in branch; capabilities the target lacks: control.clock in main, control.reset in branch): differences may come from that, not from the target`,
  );
  // A difference results.json keeps only as a hash (the roles given tokens, the baseline file) is named as such.
  const third = createResultsFixture();
  third.fingerprint.config = sha256('roles');
  expect(
    compareRuns([
      { label: 'main', results: first },
      { label: 'x', results: third },
    ]).notes,
  ).toEqual([
    'x ran with another configuration than main (the roles given tokens or the baseline file, which results.json keeps only as a hash): differences may come from that, not from the target',
  ]);
});

test('several implementations side by side: each against the first; a case one run lacks is "not run"; reworded requirements and other configurations are flagged', () => {
  const first = createResultsFixture();
  const second = after({ 'assignees/list-returns-users': 'FAIL' });
  const third = createResultsFixture();
  third.cases = third.cases.filter((c) => c.id !== 'auth/anonymous-put-limits-401');
  third.requirements[0].quote_sha256 = sha256('another wording');
  third.fingerprint.config = sha256('strict');
  const comparison = compareRuns(['ref', 'a', 'b'].map((label, i) => ({ label, results: [first, second, third][i] })));
  const row = (id: string) => comparison.cases.find((c) => c.id === id)!;
  expect(row('assignees/list-returns-users')).toMatchObject({
    cells: ['PASS', 'FAIL', 'PASS'],
    changes: ['same', 'regressed', 'same'],
    change: 'regressed',
    textChanged: true,
  });
  expect(row('auth/anonymous-put-limits-401')).toMatchObject({ cells: ['PASS', 'PASS', undefined], change: 'removed' });
  expect(comparison.notes).toEqual([expect.stringContaining('b ran with another configuration')]);

  const markdown = renderCompareMarkdown(comparison);
  expect(markdown).toContain('## ❌ touchstone comparison: 1 newly failing case');
  expect(markdown).toMatch(
    /\| `assignees\/list-returns-users` \(requirement text changed\) \| PASS \| \*\*FAIL\*\* \| PASS \| `now FAIL` \|/,
  );
  const page = renderCompareHtml(comparison);
  // A message a target wrote is text, never markup.
  expect(
    renderCompareHtml(
      compareRuns([
        { label: 'x', results: first },
        { label: '<b>y</b>', results: after({ 'assignees/list-returns-users': 'FAIL' }) },
      ]),
    ),
  ).toContain('&lt;b&gt;y&lt;/b&gt;');
  expect(page.indexOf('data-testid="regressed"')).toBeLessThan(page.indexOf('data-testid="cases"'));
});

test('labels: the names given, else the folder names, made unique', () => {
  expect(runLabels([], ['main', 'branch'])).toEqual(['main', 'branch']);
  expect(runLabels(['ref'], ['out', 'out'])).toEqual(['ref', 'out']);
  expect(runLabels([], ['out', 'out'])).toEqual(['out (1)', 'out (2)']);
});
