// @octokit/rest against the traffic endpoints (popular lists, views, clones): its methods, types and error handling work.
import { expect, test } from '../../octokit.fixture.js';

const repo = { owner: 'octo-org', repo: 'widgets' };

test('getTopReferrers and getTopPaths return the top ten lists', async ({ octokit }) => {
  const client = octokit('repo-writer');
  const referrers = await client.rest.repos.getTopReferrers(repo);
  expect(referrers.status).toBe(200);
  expect(referrers.data).toHaveLength(10);
  expect(typeof referrers.data[0].referrer).toBe('string');
  const paths = await client.rest.repos.getTopPaths(repo);
  expect(paths.data[0].path).toMatch(/^\/octo-org\/widgets/);
});

test('a reader gets the 403 as a RequestError', async ({ octokit }) => {
  await expect(octokit('repo-reader').rest.repos.getTopReferrers(repo)).rejects.toMatchObject({ status: 403 });
});

test('getViews and getClones return the totals and entries, per day by default and per week when asked', async ({ octokit }) => {
  const client = octokit('repo-admin');
  const views = await client.rest.repos.getViews(repo);
  expect(views.data.views).toHaveLength(14);
  expect(views.data.count).toBe(views.data.views.reduce((sum, e) => sum + e.count, 0));
  const clones = await client.rest.repos.getClones({ ...repo, per: 'week' });
  expect(clones.data.clones.map((e) => new Date(e.timestamp).getUTCDay())).toEqual([1, 1, 1]);
});
