// @octokit/rest against the assignee endpoints: each method, its pagination helper over the
// Link header, and its errors.
import { expect, test } from '../../octokit.fixture.js';

const widgets = { owner: 'octo-org', repo: 'widgets' };

test('listAssignees, and paginate() walking every page of a repository with 106 assignable users', async ({ octokit }) => {
  const client = octokit('repo-admin');
  const first = await client.rest.issues.listAssignees(widgets);
  expect(first.status).toBe(200);
  expect(first.data.map((user) => user.login)).toContain('monalisa');
  const everyone = await client.paginate(client.rest.issues.listAssignees, { owner: 'octo-org', repo: 'crowd', per_page: 30 });
  const logins = everyone.map((user) => user.login);
  expect(new Set(logins).size).toBe(logins.length);
  expect(logins).toContain('dev-105');
  expect(logins.length).toBeGreaterThan(105);
});

test('checkUserCanBeAssigned: 204 for a pusher, a RequestError 404 for anyone else', async ({ octokit }) => {
  const client = octokit('repo-reader');
  expect((await client.rest.issues.checkUserCanBeAssigned({ ...widgets, assignee: 'defunkt' })).status).toBe(204);
  await expect(client.rest.issues.checkUserCanBeAssigned({ ...widgets, assignee: 'mojombo' })).rejects.toMatchObject({ status: 404 });
});

test('addAssignees and removeAssignees return the issue with its assignees', async ({ octokit }) => {
  const client = octokit('repo-writer');
  const added = await client.rest.issues.addAssignees({ ...widgets, issue_number: 1, assignees: ['defunkt'] });
  expect(added.status).toBe(201);
  expect(added.data.assignees?.map((user) => user.login)).toEqual(['defunkt']);
  const removed = await client.rest.issues.removeAssignees({ ...widgets, issue_number: 1, assignees: ['defunkt'] });
  expect(removed.status).toBe(200);
  expect(removed.data.assignees).toEqual([]);
});
