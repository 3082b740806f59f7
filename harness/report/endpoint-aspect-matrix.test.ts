import { expect, test } from '@playwright/test';
import { buildEndpointAspectMatrix, matrixCellKey } from './endpoint-aspect-matrix.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';

test('rows are every distinct endpoint, grouped by path then method', () => {
  const matrix = buildEndpointAspectMatrix(createResultsFixture().cases);
  expect(matrix.endpoints).toEqual([
    'PUT /orgs/{org}/interaction-limits',
    'GET /repos/{owner}/{repo}/assignees',
    'GET /repos/{owner}/{repo}/git/blobs/{file_sha}',
    'PUT /repos/{owner}/{repo}/interaction-limits',
  ]);
  const sorted = buildEndpointAspectMatrix(
    ['DELETE /a', 'GET /b', 'PUT /a', 'GET /a', 'POST /a'].map((endpoint, i) => ({
      ...createResultsFixture().cases[0]!,
      id: `s/${i}`,
      endpoints: [endpoint],
    })),
  );
  expect(sorted.endpoints).toEqual(['GET /a', 'POST /a', 'PUT /a', 'DELETE /a', 'GET /b']);
});

test('a cell holds the worst outcome and every case with that endpoint and aspect', () => {
  const cases = createResultsFixture().cases;
  const matrix = buildEndpointAspectMatrix(cases);
  const assignees = 'GET /repos/{owner}/{repo}/assignees';
  const pagination = matrix.cell(assignees, 'pagination')!;
  expect(pagination.worst).toBe('FAIL');
  expect(pagination.caseIndexes.map((i) => cases[i]!.id)).toEqual(['assignees/single-page-omits-link', 'assignees/per-page-max']);
  expect(pagination.counts).toEqual({ FAIL: 1, PASS: 1 });
  expect(matrix.cell(assignees, 'status')!.worst).toBe('WARN');
  expect(matrix.cell(assignees, 'limits')).toBeUndefined();
  expect(matrixCellKey(assignees, 'status')).toBe('GET /repos/{owner}/{repo}/assignees|status');
});

test('a failure counts only against the endpoint whose exchange showed it', () => {
  const [base] = createResultsFixture().cases;
  const failing = {
    ...base,
    outcome: 'FAIL' as const,
    message: 'm',
    aspects: ['state' as const],
    endpoints: ['PUT /orgs/{org}/interaction-limits', 'PUT /repos/{owner}/{repo}/interaction-limits'],
    failure: { requirement: 'r', endpoint: 'PUT /repos/{owner}/{repo}/interaction-limits', expected: 'status 409', actual: 'status 200' },
  };
  const matrix = buildEndpointAspectMatrix([failing]);
  expect(matrix.cell('PUT /repos/{owner}/{repo}/interaction-limits', 'state')?.worst).toBe('FAIL');
  expect(matrix.cell('PUT /orgs/{org}/interaction-limits', 'state')?.worst).toBe('PASS');
});
