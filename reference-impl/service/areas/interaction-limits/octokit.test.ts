// @octokit/rest against the interaction-restriction endpoints, repository and organization.
import { expect, test } from '../../octokit.fixture.js';

const widgets = { owner: 'octo-org', repo: 'widgets' };

test('set, get and remove a repository restriction', async ({ octokit }) => {
  const client = octokit('repo-admin');
  const set = await client.rest.interactions.setRestrictionsForRepo({ ...widgets, limit: 'contributors_only', expiry: 'one_week' });
  expect(set.data).toMatchObject({ limit: 'contributors_only', origin: 'repository' });
  expect((await client.rest.interactions.getRestrictionsForRepo(widgets)).data).toEqual(set.data);
  expect((await client.rest.interactions.removeRestrictionsForRepo(widgets)).status).toBe(204);
  expect((await client.rest.interactions.getRestrictionsForRepo(widgets)).data).toEqual({});
});

test('set, get and remove an organization restriction; a non-owner gets the 403 as a RequestError', async ({ octokit }) => {
  const client = octokit('org-owner');
  const set = await client.rest.interactions.setRestrictionsForOrg({ org: 'octo-org', limit: 'existing_users' });
  expect(set.data).toMatchObject({ limit: 'existing_users', origin: 'organization' });
  expect((await client.rest.interactions.getRestrictionsForOrg({ org: 'octo-org' })).data).toEqual(set.data);
  expect((await client.rest.interactions.removeRestrictionsForOrg({ org: 'octo-org' })).status).toBe(204);
  await expect(octokit('repo-admin').rest.interactions.getRestrictionsForOrg({ org: 'octo-org' })).rejects.toMatchObject({ status: 403 });
});
