import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { compileSchemaFile, createAjv } from '../core/validated-file.js';
import { buildResults } from './build-results.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { OUTCOMES } from '../core/results.js';

// The renderers' tests are only as good as their fixture: it must obey the contract the
// conformance reporter writes to.
test('the fixture is a valid results.json', () => {
  // The same ajv setup (2020-12, formats) every data file of touchstone is validated with.
  const validate = compileSchemaFile(createAjv(), fileURLToPath(new URL('./results.schema.json', import.meta.url)));
  const valid = validate(createResultsFixture());
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
});

test('the fixture summary and requirement statuses agree with its cases', () => {
  const results = createResultsFixture();
  for (const outcome of OUTCOMES) {
    expect(results.summary[outcome], outcome).toBe(results.cases.filter((c) => c.outcome === outcome).length);
  }
  expect(results.summary.total).toBe(results.cases.length);
  const caseIds = new Set(results.cases.map((c) => c.id));
  for (const r of results.requirements) {
    for (const id of r.cases) expect(caseIds.has(id), `${r.id} cites ${id}`).toBe(true);
  }
  const outcomes = new Set(results.cases.map((c) => c.outcome));
  expect([...outcomes].sort()).toEqual([...OUTCOMES].sort());
  expect(results.requirements.some((r) => r.status === 'UNTESTED')).toBe(true);
});

test('the fixture is what buildResults makes of its cases: requirement statuses, gaps and verdict', () => {
  const fixture = createResultsFixture();
  const built = buildResults(fixture.cases, fixture.requirements, {
    kind: fixture.kind,
    target: fixture.target,
    startedAt: new Date(fixture.started_at),
    finishedAt: new Date(fixture.finished_at),
    strict: fixture.strict,
    version: fixture.tool.version,
    fingerprint: fixture.fingerprint,
    suites: fixture.scope.suites,
  });
  expect(built).toEqual(fixture);
});
