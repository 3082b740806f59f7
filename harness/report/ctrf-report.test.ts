// ctrf.json is a valid CTRF document (checked by the format's reference implementation) that
// says what junit.xml says: statuses, the verdict as a test, the outcome in rawStatus.
import { expect, test } from '@playwright/test';
import { validate } from 'ctrf';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { renderCtrf } from './ctrf-report.js';

test('the fixture run as CTRF: valid, one test per case plus the verdict, statuses and outcomes kept', () => {
  const results = createResultsFixture();
  const document = JSON.parse(renderCtrf(results));
  const validation = validate(document);
  expect(validation.errors).toEqual([]);
  expect(validation.valid).toBe(true);
  const { summary, tests } = document.results;
  expect(tests).toHaveLength(results.cases.length + 1);
  // PASS 3 + WARN + XFAIL pass; FAIL and ERROR fail, and so does the verdict of a non-conforming run; SKIP skipped.
  expect(summary).toMatchObject({ tests: 9, passed: 5, failed: 3, skipped: 1, pending: 0, other: 0 });
  expect(tests[0]).toMatchObject({ name: 'verdict', status: 'failed', rawStatus: 'non-conforming', suite: ['touchstone'] });
  const failing = tests.find((t: { labels: { case: string } }) => t.labels.case === 'assignees/single-page-omits-link');
  expect(failing).toMatchObject({
    status: 'failed',
    rawStatus: 'FAIL',
    suite: ['assignees'],
    labels: { requirements: ['pagination.link-omitted-single-page'] },
  });
  expect(failing.trace).toContain('reproduce: curl');
  expect(failing.stop - failing.start).toBe(failing.duration);
  expect(document.results.extra).toMatchObject({ verdict: 'non-conforming', fingerprint: results.fingerprint });
});

test('a conforming run: the verdict test passes and nothing fails', () => {
  const results = createResultsFixture();
  results.cases = results.cases.filter((c) => c.outcome === 'PASS');
  results.verdict = 'conforming';
  const document = JSON.parse(renderCtrf(results));
  expect(validate(document).valid).toBe(true);
  expect(document.results.summary).toMatchObject({ tests: results.cases.length + 1, failed: 0 });
  expect(document.results.tests[0]).toMatchObject({ name: 'verdict', status: 'passed' });
});
