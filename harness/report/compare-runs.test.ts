// The comparison of runs: what counts as a regression, how rows sort, what the pages say,
// and the pages (the command and its exit code: harness/cli/report-cli.test.ts).
import { expect, test } from '@playwright/test';
import { sha256 } from '../core/fingerprint.js';
import { createResultsFixture, withOutcomes } from '../../test-support/results-fixture.js';
import { compareRuns, comparisonHeadline, runLabels } from './compare-runs.js';
import { renderCompareMarkdown } from './compare-markdown.js';
import { renderCompareHtml } from './compare-html.js';

const after = withOutcomes;

test('a case worse than in the first run regressed (PASS to SKIP too: no longer checked); better is fixed; regressions sort first', () => {
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
    'assignees/per-page-max': 'regressed',
    'conventions/vnd-media-type': 'regressed',
    'assignees/single-page-omits-link': 'fixed',
    'assignees/list-returns-users': 'same',
  });
  expect(comparison.cases.slice(0, 3).map((c) => c.change)).toEqual(['regressed', 'regressed', 'regressed']);
  expect(comparison.cases[3].change).toBe('fixed');
  expect(comparison.regressions.cases).toBe(3);
  expect(comparison.requirements.find((r) => r.id === 'pagination.per-page-max')).toMatchObject({
    cells: ['PASS', 'UNTESTED'],
    change: 'regressed',
  });
  expect(comparisonHeadline(comparison)).toMatch(/^3 newly failing cases, \d+ requirements? worse against before$/);
  expect(comparison.notes).toEqual([]);
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
