// @octokit/rest against the traffic endpoints: its methods, types and error handling work.
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
