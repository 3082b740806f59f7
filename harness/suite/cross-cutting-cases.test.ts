// The cross-cutting cases an endpoint of the catalogue gets, and where a rule does not reach.
import { expect, test } from '@playwright/test';
import type { StepsCase } from '../core/suite-format.js';
import { crossCuttingCases } from './cross-cutting-cases.js';
import type { CatalogueEndpoint } from './endpoint-aliases.js';

const octo = 'octo-org';
const endpoint = (overrides: Partial<CatalogueEndpoint>): CatalogueEndpoint => ({
  id: 'limits.set',
  spec: '1.28',
  method: 'PUT',
  path: '/repos/{owner}/{repo}/interaction-limits',
  area: 'interaction-limits',
  file: 'suites/endpoints/interaction-limits.yaml',
  unauthenticated: [401],
  example: { as: 'repo-admin', params: { owner: octo, repo: 'widgets' }, body: { limit: 'existing_users' }, status: 200 },
  ...overrides,
});

const byId = (cases: StepsCase[]) => Object.fromEntries(cases.map((c) => [c.id, c]));

test('an endpoint with an example gets one case per rule, keyed RULE--ENDPOINT, each sending the example changed in one way', () => {
  const cases = byId(crossCuttingCases([endpoint({})]));
  expect(Object.keys(cases)).toEqual([
    'user-agent-missing--limits-set',
    'user-agent-empty--limits-set',
    'bearer-scheme--limits-set',
    'token-scheme--limits-set',
    'unknown-token--limits-set',
    'current-version--limits-set',
    'vendor-media-type--limits-set',
    'application-json--limits-set',
    'names-in-another-case--limits-set',
    'unknown-owner-resource--limits-set',
  ]);
  const example = {
    method: 'PUT',
    path: '/repos/{owner}/{repo}/interaction-limits',
    params: { owner: octo, repo: 'widgets' },
    body: { limit: 'existing_users' },
  };
  expect(cases['user-agent-missing--limits-set']).toEqual({
    id: 'user-agent-missing--limits-set',
    title: 'PUT /repos/{owner}/{repo}/interaction-limits (limits.set): without User-Agent it is rejected',
    requirements: ['user-agent.required'],
    as: 'repo-admin',
    aspects: ['status'],
    steps: [{ request: { ...example, headers: { 'User-Agent': null } }, expect: { status: '4xx' } }],
  });
  // A write that succeeds changes the world: it needs a reset; a refused one does not.
  expect(cases['token-scheme--limits-set']).toMatchObject({
    requires: ['control.reset'],
    steps: [{ request: { ...example, headers: { Authorization: 'token $TOKEN' } }, expect: { status: 200 } }],
  });
  // An unknown token, then none: the example's own token is never sent.
  expect(cases['unknown-token--limits-set']).toMatchObject({
    as: 'anonymous',
    requirements: ['auth.required-401'],
    steps: [
      { request: { ...example, headers: { Authorization: 'Bearer ts_not_a_known_token_123' } }, expect: { status: 401 } },
      { request: example, expect: { status: 401 } },
    ],
  });
  expect(cases['names-in-another-case--limits-set'].steps[0]).toEqual({
    request: { ...example, params: { owner: 'OCTO-ORG', repo: 'WIDGETS' } },
    expect: { status: 200 },
  });
  // For some callers only: 403 is as good as 404; an endpoint serving public data says 404.
  expect(cases['unknown-owner-resource--limits-set'].steps[0]).toEqual({
    request: { ...example, params: { owner: octo, repo: 'no-such-repository' } },
    expect: { status: [404, 403] },
  });
  expect(byId(crossCuttingCases([endpoint({ public: true })]))['unknown-owner-resource--limits-set'].steps[0]).toMatchObject({
    expect: { status: 404 },
  });
});

test('a rule does not reach where the spec leaves it open: schemes on anonymous examples, 401 where no token is needed or nothing is said, org in spec 1', () => {
  const rules = (cases: StepsCase[]) => cases.map((c) => c.id.split('--')[0]);
  const anonymous = crossCuttingCases([
    endpoint({
      public: true,
      unauthenticated: undefined,
      example: { as: 'anonymous', params: { owner: octo, repo: 'widgets' }, status: 200 },
    }),
  ]);
  expect(rules(anonymous)).not.toContain('bearer-scheme');
  expect(rules(anonymous)).not.toContain('unknown-token');
  const unsaid = crossCuttingCases([endpoint({ unauthenticated: undefined })]);
  expect(rules(unsaid)).toContain('token-scheme');
  expect(rules(unsaid)).not.toContain('unknown-token');
  // Where the row lists 403 and 404 but not 401, each is accepted.
  const listed = byId(crossCuttingCases([endpoint({ unauthenticated: [401, 403, 404] })]));
  expect(listed['unknown-token--limits-set']).toMatchObject({
    title: 'PUT /repos/{owner}/{repo}/interaction-limits (limits.set): an unknown token and no token at all get 401 or 403 or 404',
    steps: [{ expect: { status: [401, 403, 404] } }, { expect: { status: [401, 403, 404] } }],
  });

  const orgLimits = {
    id: 'limits.org',
    path: '/orgs/{org}/interaction-limits',
    example: { as: 'org-owner', params: { org: octo }, status: 200 },
  };
  const spec1 = byId(crossCuttingCases([endpoint({ ...orgLimits, spec: '1.30' })]));
  expect(spec1['names-in-another-case--limits-org']).toBeUndefined();
  expect(spec1['unknown-owner-resource--limits-org'].steps[0]).toMatchObject({ request: { params: { org: 'no-such-organization' } } });
  const spec2 = byId(crossCuttingCases([endpoint({ ...orgLimits, spec: '2.10' })]));
  expect(spec2['names-in-another-case--limits-org']).toMatchObject({
    requirements: ['conventions.case-insensitive-org'],
    steps: [{ request: { params: { org: 'OCTO-ORG' } } }],
  });

  // No example, no cases.
  expect(crossCuttingCases([endpoint({ example: undefined })])).toEqual([]);
});
