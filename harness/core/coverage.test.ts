import { expect, test } from '@playwright/test';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { coverageShortfalls, parseMinCoverage } from './coverage.js';
import { EXIT } from './errors.js';
import { exitCodeOf } from './exit-code.js';

test('--min-coverage: one percentage for every kind, or KIND=PERCENT; anything else is a usage error', () => {
  expect(parseMinCoverage(['90'], 'service')).toEqual({ requirements: 90, endpoints: 90, 'endpoint-aspects': 90 });
  expect(parseMinCoverage(['80', 'endpoint-aspects=50%'], 'service')).toEqual({ requirements: 80, endpoints: 80, 'endpoint-aspects': 50 });
  for (const bad of ['ninety', '101', 'aspects=50', 'requirements=', '-5'])
    expect(() => parseMinCoverage([bad], 'service'), bad).toThrow(/--min-coverage .*: give a percentage/);
});

test('--min-coverage of a plugin or compiler run: requirements only, which they have; endpoints are a usage error', () => {
  for (const kind of ['plugin', 'compiler'] as const) {
    expect(parseMinCoverage(['90'], kind)).toEqual({ requirements: 90 });
    expect(parseMinCoverage(['requirements=80'], kind)).toEqual({ requirements: 80 });
    for (const bad of ['endpoints=50', 'endpoint-aspects=50'])
      expect(() => parseMinCoverage([bad], kind), bad).toThrow(
        `--min-coverage ${bad}: give a percentage, or KIND=PERCENT with KIND requirements`,
      );
  }
});

test('a run below a threshold says by how much and is incomplete (exit 4), even when --allow-incomplete forgives the gaps; a FAIL stays exit 1', () => {
  const results = createResultsFixture(); // requirements 7 of 9, endpoints 3 of 4, endpoint × aspect pairs 5 of 7
  results.summary.FAIL = 0;
  results.gaps = { untested: [], roles: [], capabilities: [], errors: [] };
  expect(coverageShortfalls(results, parseMinCoverage(['75'], 'service'))).toEqual([
    'coverage of endpoint-aspects is 71.4 % (5 of 7), below --min-coverage 75 %',
  ]);
  expect(exitCodeOf(results, true, parseMinCoverage(['75'], 'service'))).toBe(EXIT.incomplete);
  expect(exitCodeOf(results, true, parseMinCoverage(['70'], 'service'))).toBe(EXIT.conforming);
  results.summary.FAIL = 1;
  expect(exitCodeOf(results, true, parseMinCoverage(['75'], 'service'))).toBe(EXIT.failed);
});
