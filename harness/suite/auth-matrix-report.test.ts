// An auth matrix with two broken rows, from the case runner to every report file: each
// format names both rows by role, so an implementer finds them without logging tokens on
// their own server. The case runs for real against a fake target; the reports are written
// by the same code `touchstone run` uses.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { WireRequest } from '../http/transport.js';
import { buildResults, caseResult } from '../report/build-results.js';
import { REPORT_FILES, REPRO_FILE, writeReports } from '../report/write-reports.js';
import { serviceCaseFacts } from './case-facts.js';
import { context, registry, respond } from './case-runner.fixture.js';
import { runCase } from './case-runner.js';
import type { Case } from '../core/suite-format.js';

const matrix: Case = {
  id: 'write-access',
  title: 'writing needs the admin role',
  kind: 'auth-matrix',
  requirements: ['test.must'],
  request: { method: 'PUT', path: '/thing', body: { a: 1 } },
  expect_by_role: { anonymous: 401, admin: 200 },
};

test('a matrix with two broken rows lists both, with their roles and tokens, in every report format', async () => {
  // Both rows broken: the anonymous caller gets in, the admin is refused.
  const target = (r: WireRequest) => respond(r.headers.some(([k]) => k === 'Authorization') ? 403 : 200, {});
  const started = new Date();
  const found = await runCase(matrix, context(target).ctx);
  const facts = serviceCaseFacts('things', matrix, registry);
  expect(facts.role).toBeUndefined();
  const results = buildResults([caseResult(facts, found, { started_at: started.toISOString(), duration_ms: 5 })], registry.values(), {
    kind: 'service',
    target: { url: 'http://impl.test', embedded: false },
    startedAt: started,
    finishedAt: new Date(),
    strict: false,
    version: '0.0.0',
    fingerprint: { suites: `sha256:${'0'.repeat(64)}`, requirements: `sha256:${'0'.repeat(64)}`, config: `sha256:${'0'.repeat(64)}` },
    suites: [],
    rerun: 'npx touchstone run --target http://impl.test --tokens tokens.yaml',
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-matrix-'));
  writeReports(dir, results);
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

  const json = JSON.parse(read(REPORT_FILES.results));
  const [c] = json.cases;
  expect(c.role).toBeUndefined();
  expect(c.matrix.filter((row: { outcome: string }) => row.outcome === 'FAIL').map((row: { role: string }) => row.role)).toEqual([
    'anonymous',
    'admin',
  ]);
  expect(c.failures.map((f: { role: string }) => f.role)).toEqual(['anonymous', 'admin']);

  const html = read(REPORT_FILES.html);
  for (const role of ['anonymous', 'admin']) {
    expect(html).toMatch(new RegExp(`data-testid="matrix-row" data-role="${role}" data-outcome="FAIL" class="broken"`));
    expect(html).toContain(`MUST test.must, as ${role}: expected`);
  }
  expect(html).toContain('classic token of a, scopes repo');

  const junit = read(REPORT_FILES.junit);
  expect(junit).toContain('<property name="broken-row" value="anonymous"/>');
  expect(junit).toContain('<property name="broken-row" value="admin"/>');
  expect(junit).toContain('FAIL admin (classic token of a, scopes repo): expected 200, got 403');
  expect(junit).toContain('FAIL anonymous (no token (no Authorization header)): expected 401, got 200');

  const ctrf = JSON.parse(read(REPORT_FILES.ctrf));
  const test = ctrf.results.tests.find((t: { labels: { case: string } }) => t.labels.case === 'things/write-access');
  expect(test.labels['broken-rows']).toEqual(['anonymous', 'admin']);
  expect(test.trace).toContain('FAIL admin (classic token of a, scopes repo)');

  const summary = read(REPORT_FILES.summary);
  expect(summary).toContain(
    '`MUST test.must, as anonymous: expected status 401, got status 200`<br>`MUST test.must, as admin: expected status 200, got status 403`',
  );

  const repro = read(REPRO_FILE);
  expect(repro).toContain('#   as anonymous: expected status 401, got status 200');
  expect(repro).toContain(
    '#   as admin: expected status 200, got status 403\n#   TOKEN: the `admin` token from your tokens file\n#   curl ',
  );
});
