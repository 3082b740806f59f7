// Requests name endpoints by id; a suite's params fill the path parameters its requests leave out.
import { expect, test } from '@playwright/test';
import type { Case } from '../core/suite-format.js';
import { loadEndpointAliases, resolveRequests } from './endpoint-aliases.js';

const aliases = loadEndpointAliases();

function resolved(request: Record<string, unknown>, params: Record<string, string> = {}) {
  const cases = [{ id: 'c', title: 't', requirements: ['r'], steps: [{ request, expect: {} }] }] as unknown as Case[];
  resolveRequests(cases, aliases, params, 'sample.yaml');
  return (cases[0] as { steps: { request: unknown }[] }).steps[0].request;
}

test('an endpoint id becomes its method and path; the suite params fill only the parameters its template names', () => {
  expect(
    resolved({ endpoint: 'assignees.add', params: { issue_number: '3' } }, { owner: 'octo-org', repo: 'widgets', org: 'octo-org' }),
  ).toEqual({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
    params: { owner: 'octo-org', repo: 'widgets', issue_number: '3' },
  });
  expect(resolved({ endpoint: 'organization-limits.get' }, { owner: 'octo-org', org: 'octo-org' })).toMatchObject({
    params: { org: 'octo-org' },
  });
});

test("a request's own params win over the suite's; a method and path without an endpoint stay as written", () => {
  expect(resolved({ endpoint: 'assignees.list', params: { repo: 'crowd' } }, { owner: 'octo-org', repo: 'widgets' })).toMatchObject({
    params: { owner: 'octo-org', repo: 'crowd' },
  });
  expect(resolved({ method: 'GET', path: '/repos/{owner}/{repo}/nowhere' }, { owner: 'o', repo: 'r' })).toEqual({
    method: 'GET',
    path: '/repos/{owner}/{repo}/nowhere',
    params: { owner: 'o', repo: 'r' },
  });
});

test('an unknown endpoint id is refused, naming the case and the known ids', () => {
  expect(() => resolved({ endpoint: 'assignees.lst' })).toThrow(
    /sample\.yaml case c: unknown endpoint assignees\.lst; known: (.*, )?assignees\.list, /,
  );
});
